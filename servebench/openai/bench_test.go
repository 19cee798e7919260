package openai_test

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

	"github.com/servebench/servebench/servebench/openai"
	"github.com/servebench/servebench/servebench/record"
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

// benchResponsesStream renders a vLLM-shaped Responses stream of tokens
// text deltas as separate typed events: the opening events, one
// response.output_text.delta per token, the closing events and the
// terminal response.completed with usage.
func benchResponsesStream(tokens int) [][]byte {
	seq := 0
	var events [][]byte
	add := func(typ, format string, args ...any) {
		events = append(events, fmt.Appendf(nil, "event: %s\ndata: {\"type\":%q,\"sequence_number\":%d,"+format+"}\n\n",
			append([]any{typ, typ, seq}, args...)...))
		seq++
	}
	resp := `"response":{"id":"resp_8f1c2a7e0b6d4e3f9a5b","object":"response","created_at":1764400000,"model":"bench","status":"%s","output":[]}`
	add("response.created", resp, "in_progress")
	add("response.in_progress", resp, "in_progress")
	add("response.output_item.added", `"output_index":0,"item":{"id":"msg_1","type":"message","role":"assistant","status":"in_progress","content":[]}`)
	add("response.content_part.added", `"item_id":"msg_1","output_index":0,"content_index":0,"part":{"type":"output_text","text":"","annotations":[]}`)
	for i := range tokens {
		add("response.output_text.delta", `"item_id":"msg_1","output_index":0,"content_index":0,"delta":" tok%d","logprobs":[]`, i)
	}
	add("response.output_text.done", `"item_id":"msg_1","output_index":0,"content_index":0,"text":"...","logprobs":[]`)
	add("response.content_part.done", `"item_id":"msg_1","output_index":0,"content_index":0,"part":{"type":"output_text","text":"...","annotations":[]}`)
	add("response.output_item.done", `"output_index":0,"item":{"id":"msg_1","type":"message","role":"assistant","status":"completed"}`)
	add("response.completed", `"response":{"id":"resp_8f1c2a7e0b6d4e3f9a5b","object":"response","created_at":1764400000,"model":"bench","status":"completed","output":[],`+
		`"usage":{"input_tokens":32,"input_tokens_details":{"cached_tokens":0},"output_tokens":%d,"output_tokens_details":{"reasoning_tokens":0},"total_tokens":%d}}`, tokens, 32+tokens)
	return events
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
	chat, responses := benchStream(64), benchResponsesStream(64)
	chatWhole, responsesWhole := bytes.Join(chat, nil), bytes.Join(responses, nil)
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "text/event-stream")
		rc := http.NewResponseController(w)
		events, whole := chat, chatWhole
		if strings.HasSuffix(r.URL.Path, "/v1/responses") {
			events, whole = responses, responsesWhole
		}
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
// request against a server in another process: "flushed" writes one
// event per flush (one HTTP chunk each), "burst" writes the whole stream
// at once; the chat stream is a vLLM chat stream, the "responses-" runs a
// vLLM-shaped Responses stream of the same 64 tokens (72 typed events).
// ns/op is wall time per request; cpu-ns/op is this process's CPU time
// (all threads: the client, its transport goroutines and the Go runtime)
// per request; allocs/op and B/op are the client's alone.
func BenchmarkClientStream(b *testing.B) {
	addr := startBenchServer(b)
	row := &record.Request{ID: "b", Messages: []record.Message{{Role: "user", Content: "Write a story about a benchmark."}}, MaxTokens: 64}
	for _, api := range []struct {
		prefix   string
		endpoint record.Endpoint
	}{{"", record.EndpointChat}, {"responses-", record.EndpointResponses}} {
		for _, mode := range []string{"flushed", "burst"} {
			b.Run(api.prefix+mode, func(b *testing.B) {
				c := &openai.Client{BaseURL: "http://" + addr + "/" + mode, Model: "bench", Endpoint: api.endpoint,
					FirstTokenTimeout: 10 * time.Second, IdleTimeout: 10 * time.Second, TotalTimeout: 30 * time.Second}
				start := time.Now()
				out := &record.Outcome{}
				c.Do(context.Background(), start, row, "warmup", out)
				if out.Status != record.StatusSuccess {
					b.Fatalf("warmup: %s %s", out.Status, out.Error)
				}
				b.ReportAllocs()
				cpu0 := cpuTime()
				for b.Loop() {
					*out = record.Outcome{ID: "b", Attempt: 1}
					c.Do(context.Background(), start, row, "b/1", out)
					if out.Status != record.StatusSuccess || len(out.ContentMS) != 64 || *out.OutputTokens != 64 {
						b.Fatalf("%s %s, %d content events", out.Status, out.Error, len(out.ContentMS))
					}
				}
				b.ReportMetric(float64(cpuTime()-cpu0)/float64(b.N), "cpu-ns/op")
			})
		}
	}
}
