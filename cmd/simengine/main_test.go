package main

import (
	"bufio"
	"debug/elf"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"
)

func TestListenAddrPrecedence(t *testing.T) {
	for _, tc := range []struct{ flag, env, want string }{
		{"", "", "127.0.0.1:8000"},
		{"", "127.0.0.1:9000", "127.0.0.1:9000"},
		{"127.0.0.1:7000", "127.0.0.1:9000", "127.0.0.1:7000"},
	} {
		if got := listenAddr(tc.flag, tc.env); got != tc.want {
			t.Errorf("listenAddr(%q, %q) = %q, want %q", tc.flag, tc.env, got, tc.want)
		}
	}
}

func TestRunRejectsBadConfiguration(t *testing.T) {
	var out strings.Builder
	if err := run([]string{"-addr", "127.0.0.1:0", "-max-num-seqs", "0"}, &out); err == nil || !strings.Contains(err.Error(), "MaxRunningSequences") {
		t.Errorf("run with -max-num-seqs 0: %v", err)
	}
	if err := run([]string{"extra"}, &out); err == nil || !strings.Contains(err.Error(), `"extra"`) {
		t.Errorf("run with a positional argument: %v", err)
	}
	if err := run([]string{"-fault-rates", "nope=1"}, &out); err == nil || !strings.Contains(err.Error(), "unknown fault") {
		t.Errorf("run with a bad fault: %v", err)
	}
}

// TestStaticBinaryServes builds the command with CGO_ENABLED=0, checks that
// the binary is statically linked (what a FROM scratch image needs), runs it
// on a free loopback port given by SIMENGINE_ADDR, and talks to it.
func TestStaticBinaryServes(t *testing.T) {
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("go is not on PATH: cannot build the binary")
	}
	bin := filepath.Join(t.TempDir(), "simengine")
	build := exec.Command(gobin, "build", "-trimpath", "-o", bin, ".")
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("CGO_ENABLED=0 go build: %v\n%s", err, out)
	}
	f, err := elf.Open(bin)
	if err != nil {
		t.Fatalf("not an ELF binary: %v", err)
	}
	for _, p := range f.Progs {
		if p.Type == elf.PT_INTERP || p.Type == elf.PT_DYNAMIC {
			t.Errorf("binary has a %v program header: it is dynamically linked", p.Type)
		}
	}
	if libs, _ := f.ImportedLibraries(); len(libs) > 0 {
		t.Errorf("binary imports %v", libs)
	}
	f.Close()

	cmd := exec.Command(bin, "-time-scale", "0.1", "-log-requests")
	cmd.Env = append(os.Environ(), "SIMENGINE_ADDR=127.0.0.1:0")
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	lines := bufio.NewScanner(stderr)
	listening := regexp.MustCompile(`simengine listening on (127\.0\.0\.1:\d+)`)
	addr := make(chan string, 1)
	rest := make(chan string, 64)
	go func() {
		for lines.Scan() {
			if m := listening.FindStringSubmatch(lines.Text()); m != nil {
				addr <- m[1]
			}
			select {
			case rest <- lines.Text():
			default:
			}
		}
		close(rest)
	}()
	var base string
	select {
	case a := <-addr:
		base = "http://" + a
	case <-time.After(10 * time.Second):
		t.Fatal("no \"simengine listening on\" line within 10s")
	}
	resp, err := http.Get(base + "/health")
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("GET /health: %v %v", resp, err)
	}
	resp.Body.Close()
	req, _ := http.NewRequest(http.MethodPost, base+"/v1/completions",
		strings.NewReader(`{"prompt": "hello there", "max_tokens": 3, "ignore_eos": true}`))
	req.Header.Set("X-Request-Id", "req-42")
	resp, err = http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || !strings.Contains(string(body), `"completion_tokens":3`) {
		t.Fatalf("completion: %d %s", resp.StatusCode, body)
	}
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	select {
	case err := <-exited:
		if err != nil {
			t.Errorf("exit after SIGTERM: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("did not exit within 10s of SIGTERM")
	}
	var logged []string
	for l := range rest {
		logged = append(logged, l)
	}
	all := strings.Join(logged, "\n")
	if !strings.Contains(all, "request_id=req-42 path=/v1/completions status=200 outcome=complete prompt_tokens=2 completion_tokens=3") {
		t.Errorf("access log lacks the request line:\n%s", all)
	}
	if strings.Contains(all, "hello there") {
		t.Error("the access log contains the prompt")
	}
}
