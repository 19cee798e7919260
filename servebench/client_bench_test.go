package servebench_test

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/servebench/servebench/servebench"
)

// benchServerEnv makes the test binary act as BenchmarkClientStream's
// server (see TestMain).
const benchServerEnv = "SERVEBENCH_CLIENT_BENCH_SERVER"

// benchStream renders a vLLM-shaped 64-token chat stream as separate
// events.
func benchStream(tokens int) [][]byte {
	head := `{"id":"chatcmpl-8f1c2a7e0b6d4e3f9a5b","object":"chat.completion.chunk","created":1764400000,"model":"bench",`
	var events [][]byte
	add := func(format string, args ...any) {
		events = append(events, fmt.Appendf(nil, "data: "+head+format+"\n\n", args...))
	}
	add(`"choices":[{"index":0,"delta":{"role":"assistant","content":""},"logprobs":null,"finish_reason":null}]}`)
	for i := range tokens {
		add(`"choices":[{"index":0,"delta":{"content":" tok%d"},"logprobs":null,"finish_reason":null}]}`, i)
	}
	add(`"choices":[{"index":0,"delta":{"content":""},"logprobs":null,"finish_reason":"length","stop_reason":null}]}`)
	add(`"choices":[],"usage":{"prompt_tokens":32,"total_tokens":%d,"completion_tokens":%d}}`, 32+tokens, tokens)
	return append(events, []byte("data: [DONE]\n\n"))
}

// TestMain makes the test binary BenchmarkClientStream's server process
// when benchServerEnv is set, so that the benchmark's CPU and allocation
// figures are the client's alone; otherwise it runs the tests.
func TestMain(m *testing.M) {
	if os.Getenv(benchServerEnv) == "1" {
		if err := serveBenchStream(); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// serveBenchStream serves the benchmark's stream on loopback until its
// standard input closes.
func serveBenchStream() error {
	events := benchStream(64)
	whole := bytes.Join(events, nil)
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "text/event-stream")
		rc := http.NewResponseController(w)
		if strings.HasPrefix(r.URL.Path, "/burst/") {
			_, _ = w.Write(whole)
			return
		}
		for _, ev := range events {
			_, _ = w.Write(ev)
			_ = rc.Flush()
		}
	})}
	go func() { _ = srv.Serve(l) }()
	fmt.Printf("listening %s\n", l.Addr())
	_, _ = io.Copy(io.Discard, os.Stdin)
	return srv.Close()
}

// startBenchServer runs the server process and returns its address.
func startBenchServer(b *testing.B) string {
	b.Helper()
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), benchServerEnv+"=1", "GOMAXPROCS=1")
	stdin, err := cmd.StdinPipe()
	if err != nil {
		b.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		b.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() {
		stdin.Close()
		done := make(chan struct{})
		go func() { _ = cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			_ = cmd.Process.Kill()
		}
	})
	sc := bufio.NewScanner(stdout)
	for sc.Scan() {
		if addr, ok := strings.CutPrefix(sc.Text(), "listening "); ok {
			go func() { _, _ = io.Copy(io.Discard, stdout) }()
			return addr
		}
	}
	b.Fatal("the server process did not report its address")
	return ""
}

// cpuTime is the process's user plus system CPU time.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkClientStream measures the client's cost per 64-token streamed
// chat request against a server in another process: "flushed" writes one
// event per flush (64+4 HTTP chunks), "burst" writes the whole stream at
// once. ns/op is wall time per request; cpu-ns/op is this process's CPU
// time (all threads: the client, its transport goroutines and the Go
// runtime) per request; allocs/op and B/op are the client's alone.
func BenchmarkClientStream(b *testing.B) {
	addr := startBenchServer(b)
	row := &servebench.Request{ID: "b", Messages: []servebench.Message{{Role: "user", Content: "Write a story about a benchmark."}}, MaxTokens: 64}
	for _, mode := range []string{"flushed", "burst"} {
		b.Run(mode, func(b *testing.B) {
			c := &servebench.Client{BaseURL: "http://" + addr + "/" + mode, Model: "bench", Endpoint: servebench.EndpointChat,
				Stream: true, FirstTokenTimeout: 10 * time.Second, IdleTimeout: 10 * time.Second, TotalTimeout: 30 * time.Second}
			start := time.Now()
			out := &servebench.Outcome{}
			c.Do(context.Background(), start, row, "warmup", out)
			if out.Status != servebench.StatusSuccess {
				b.Fatalf("warmup: %s %s", out.Status, out.Error)
			}
			b.ReportAllocs()
			cpu0 := cpuTime()
			for b.Loop() {
				*out = servebench.Outcome{ID: "b", Attempt: 1}
				c.Do(context.Background(), start, row, "b/1", out)
				if out.Status != servebench.StatusSuccess || len(out.ContentMS) != 64 {
					b.Fatalf("%s %s, %d content events", out.Status, out.Error, len(out.ContentMS))
				}
			}
			b.ReportMetric(float64(cpuTime()-cpu0)/float64(b.N), "cpu-ns/op")
		})
	}
}
