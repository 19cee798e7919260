//go:build linux

package module

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// The test binary doubles as a fake engine: started with
// SERVEBENCH_FAKE_ENGINE set, it runs fakeEngine instead of the tests. An
// init function (not TestMain) keeps the package free to have its own
// TestMain.
const fakeEngineEnv = "SERVEBENCH_FAKE_ENGINE"

func init() {
	if mode := os.Getenv(fakeEngineEnv); mode != "" {
		os.Exit(fakeEngine(mode, os.Args[1:]))
	}
}

// fakeEngine behaves as mode says:
//
//	serve        listen on --host:--port; /health answers 503 for --warmup, then 200
//	exit         print a message and exit with status 3
//	never        print a message and never listen
//	ignore-term  like serve, but ignore SIGTERM
//	child        like serve, and start a grandchild ("sleep" mode) whose pid
//	             /child returns
//	sleep        sleep for a minute
//
// --spam N prints N bytes of output before serving.
func fakeEngine(mode string, args []string) int {
	fs := flag.NewFlagSet("fake", flag.ContinueOnError)
	host := fs.String("host", "", "")
	port := fs.Int("port", 0, "")
	warmup := fs.Duration("warmup", 0, "")
	spam := fs.Int("spam", 0, "")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	switch mode {
	case "exit":
		fmt.Println("fake engine: cannot load model xyz")
		return 3
	case "never":
		fmt.Println("fake engine: loading forever")
		time.Sleep(time.Minute)
		return 0
	case "sleep":
		time.Sleep(time.Minute)
		return 0
	case "ignore-term":
		signal.Ignore(syscall.SIGTERM)
	}
	line := strings.Repeat("x", 99) + "\n"
	for n := 0; n < *spam; n += len(line) {
		os.Stdout.WriteString(line)
	}
	var childPID int
	if mode == "child" {
		c := exec.Command(os.Args[0])
		c.Env = append(os.Environ(), fakeEngineEnv+"=sleep")
		if err := c.Start(); err != nil {
			fmt.Println("fake engine: start child:", err)
			return 4
		}
		childPID = c.Process.Pid
	}
	ready := time.Now().Add(*warmup)
	mux := http.NewServeMux()
	mux.HandleFunc("/health", func(w http.ResponseWriter, r *http.Request) {
		if time.Now().Before(ready) {
			w.WriteHeader(http.StatusServiceUnavailable)
			return
		}
		fmt.Fprintln(w, "ok")
	})
	mux.HandleFunc("/env", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, os.Getenv(r.URL.Query().Get("name")))
	})
	mux.HandleFunc("/child", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, childPID)
	})
	addr := fmt.Sprintf("%s:%d", *host, *port)
	fmt.Printf("fake engine: listening on %s\n", addr)
	if err := http.ListenAndServe(addr, mux); err != nil {
		fmt.Println("fake engine:", err)
		return 5
	}
	return 0
}

// fakeSpec is a ProcessSpec running the test binary as a fake engine.
func fakeSpec(t *testing.T, mode string, args ...string) ProcessSpec {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return ProcessSpec{
		Kind:   "fake",
		Binary: self,
		Args:   args,
		Env:    map[string]string{fakeEngineEnv: mode, "FAKE_ECHO": "hello"},
		Listen: func(host string, port int) ([]string, map[string]string) {
			return []string{"--host", host, "--port", strconv.Itoa(port)}, map[string]string{"FAKE_PORT": strconv.Itoa(port)}
		},
		HealthPath:     "/health",
		MetricsPath:    "/metrics",
		Model:          "fake-model",
		Version:        "0.0.1",
		StartupTimeout: 30 * time.Second,
	}
}

func startFake(t *testing.T, spec ProcessSpec) *Process {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	p, err := StartProcess(ctx, spec)
	t.Cleanup(func() { p.Shutdown(context.Background()) })
	if err != nil {
		t.Fatalf("StartProcess: %v", err)
	}
	return p
}

func get(t *testing.T, url string) string {
	t.Helper()
	c := &http.Client{Timeout: 5 * time.Second}
	resp, err := c.Get(url)
	if err != nil {
		t.Fatalf("GET %s: %v", url, err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return string(b)
}

func TestStartProcessServesOnLoopback(t *testing.T) {
	spec := fakeSpec(t, "serve", "--warmup", "400ms")
	p := startFake(t, spec)

	if !strings.HasPrefix(p.BaseURL(), "http://127.0.0.1:") {
		t.Fatalf("BaseURL %q is not on 127.0.0.1", p.BaseURL())
	}
	port := strings.TrimPrefix(p.BaseURL(), "http://127.0.0.1:")
	if got := get(t, p.BaseURL()+"/env?name=FAKE_PORT"); got != port {
		t.Errorf("engine got FAKE_PORT=%q from Listen, BaseURL port is %s", got, port)
	}
	if got := get(t, p.BaseURL()+"/env?name=FAKE_ECHO"); got != "hello" {
		t.Errorf("engine got FAKE_ECHO=%q, want hello", got)
	}
	if got := get(t, p.BaseURL()+"/env?name=PATH"); got == "" {
		t.Error("the inherited environment (PATH) did not reach the engine")
	}
	// /health answered 503 for 400 ms after the engine started listening.
	if p.ColdStart() < 400*time.Millisecond || p.ColdStart() > 20*time.Second {
		t.Errorf("ColdStart %s, want at least the 400ms warm-up", p.ColdStart())
	}
	want := []string{spec.Binary, "--warmup", "400ms", "--host", "127.0.0.1", "--port", port}
	if got := p.Command(); strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("Command %q, want %q", got, want)
	}
	id := p.Identity()
	if id.Kind != "fake" || id.Model != "fake-model" || id.Version != "0.0.1" || len(id.Args) != 6 || id.ColdStartMS != nil {
		t.Errorf("Identity %+v", id)
	}
	if p.Kind() != "fake" || p.Model() != "fake-model" || p.MetricsURL() != p.BaseURL()+"/metrics" {
		t.Errorf("Kind %q Model %q MetricsURL %q", p.Kind(), p.Model(), p.MetricsURL())
	}
	rc, err := p.Logs(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	logs, _ := io.ReadAll(rc)
	if !strings.Contains(string(logs), "fake engine: listening on 127.0.0.1:"+port) {
		t.Errorf("logs %q lack the listen line", logs)
	}

	if err := p.Shutdown(context.Background()); err != nil {
		t.Fatalf("Shutdown: %v", err)
	}
	select {
	case <-p.Exited():
	default:
		t.Fatal("process still running after Shutdown")
	}
	if err := p.Shutdown(context.Background()); err != nil {
		t.Errorf("second Shutdown: %v", err)
	}
}

func TestStartProcessReportsEarlyExit(t *testing.T) {
	start := time.Now()
	p, err := StartProcess(context.Background(), fakeSpec(t, "exit"))
	t.Cleanup(func() { p.Shutdown(context.Background()) })
	if err == nil {
		t.Fatal("StartProcess succeeded for an engine that exits")
	}
	for _, want := range []string{"fake: exited before it was ready (exit status 3)", "cannot load model xyz"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q lacks %q", err, want)
		}
	}
	if time.Since(start) > 20*time.Second {
		t.Errorf("early exit took %s to notice", time.Since(start))
	}
}

func TestStartProcessTimesOut(t *testing.T) {
	spec := fakeSpec(t, "never")
	spec.StartupTimeout = 500 * time.Millisecond
	p, err := StartProcess(context.Background(), spec)
	t.Cleanup(func() { p.Shutdown(context.Background()) })
	if err == nil || !strings.Contains(err.Error(), "not ready after 500ms: GET http://127.0.0.1:") ||
		!strings.Contains(err.Error(), "loading forever") {
		t.Fatalf("error %v, want a readiness timeout quoting the output", err)
	}
	select {
	case <-p.Exited():
	case <-time.After(20 * time.Second):
		t.Fatal("the engine kept running after the failed start")
	}
}

func TestStartProcessHonoursContext(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	p, err := StartProcess(ctx, fakeSpec(t, "never"))
	t.Cleanup(func() { p.Shutdown(context.Background()) })
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("error %v, want context.DeadlineExceeded", err)
	}
}

func TestShutdownKillsTheProcessGroup(t *testing.T) {
	spec := fakeSpec(t, "child")
	p := startFake(t, spec)
	child, err := strconv.Atoi(get(t, p.BaseURL()+"/child"))
	if err != nil || child <= 0 {
		t.Fatalf("child pid %q: %v", get(t, p.BaseURL()+"/child"), err)
	}
	if !alive(child) {
		t.Fatalf("grandchild %d not running before Shutdown", child)
	}
	if err := p.Shutdown(context.Background()); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for alive(child) && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
	}
	if alive(child) {
		t.Errorf("grandchild %d survived Shutdown", child)
	}
}

func TestShutdownEscalatesToKill(t *testing.T) {
	spec := fakeSpec(t, "ignore-term")
	spec.StopTimeout = 300 * time.Millisecond
	p := startFake(t, spec)
	start := time.Now()
	if err := p.Shutdown(context.Background()); err != nil {
		t.Fatal(err)
	}
	took := time.Since(start)
	if took < 300*time.Millisecond || took > 15*time.Second {
		t.Errorf("Shutdown took %s, want the 300ms stop timeout then SIGKILL", took)
	}
	if ws, ok := p.cmd.ProcessState.Sys().(syscall.WaitStatus); !ok || ws.Signal() != syscall.SIGKILL {
		t.Errorf("process state %v, want killed by SIGKILL", p.cmd.ProcessState)
	}
}

func TestProcessLogsAreBounded(t *testing.T) {
	spec := fakeSpec(t, "serve", "--spam", "100000")
	spec.LogBufferBytes = 4096
	spec.LogFile = filepath.Join(t.TempDir(), "engine.log")
	p := startFake(t, spec)
	tail := p.LogTail()
	if !strings.HasPrefix(tail, "[") || !strings.Contains(tail, "earlier bytes dropped]") {
		t.Errorf("tail does not say output was dropped: %.80q", tail)
	}
	body := tail[strings.Index(tail, "\n")+1:]
	if len(body) > 4096 {
		t.Errorf("kept %d bytes, bound is 4096", len(body))
	}
	if !strings.Contains(body, "listening on 127.0.0.1") {
		t.Errorf("tail lacks the latest line")
	}
	if err := p.Shutdown(context.Background()); err != nil {
		t.Fatal(err)
	}
	full, err := os.ReadFile(spec.LogFile)
	if err != nil {
		t.Fatal(err)
	}
	// 1000 lines of 100 bytes, then the listen line.
	if len(full) < 100000 || !strings.Contains(string(full), "listening on") {
		t.Errorf("log file has %d bytes, want the whole output", len(full))
	}
}

func TestStartProcessRejectsIncompleteSpecs(t *testing.T) {
	listen := func(string, int) ([]string, map[string]string) { return nil, nil }
	cases := []struct {
		spec ProcessSpec
		want string
	}{
		{ProcessSpec{Binary: "x", HealthPath: "/", Listen: listen}, "process spec has no kind"},
		{ProcessSpec{Kind: "k", HealthPath: "/", Listen: listen}, "k: no binary given"},
		{ProcessSpec{Kind: "k", Binary: "x", Listen: listen}, "k: process spec has no health path"},
		{ProcessSpec{Kind: "k", Binary: "x", HealthPath: "/"}, "k: process spec says nothing about how the engine listens"},
		{ProcessSpec{Kind: "k", Binary: "no-such-engine-binary", HealthPath: "/", Listen: listen}, `k: exec: "no-such-engine-binary": executable file not found`},
	}
	for _, c := range cases {
		p, err := StartProcess(context.Background(), c.spec)
		if p != nil || err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("StartProcess(%+v) = %v, %v; want error %q", c.spec, p, err, c.want)
		}
	}
}

func TestMergeEnv(t *testing.T) {
	got := mergeEnv([]string{"A=1", "B=2", "=C:=x", "D=4"}, map[string]string{"B": "20", "E": "5"})
	want := []string{"A=1", "=C:=x", "D=4", "B=20", "E=5"}
	if strings.Join(got, ";") != strings.Join(want, ";") {
		t.Errorf("mergeEnv = %q, want %q", got, want)
	}
}

// alive reports whether pid is a live (not zombie) process.
func alive(pid int) bool {
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return false
	}
	// The state follows the parenthesised command name.
	s := string(stat)
	i := strings.LastIndex(s, ")")
	return i >= 0 && i+2 < len(s) && s[i+2] != 'Z' && s[i+2] != 'X'
}
