package main

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/servebench/servebench/fixtures/simengine"
)

// frontEngine is a real loopback HTTP server in front of an in-process
// simulated engine: it counts the API requests it receives, keeps the
// headers of each, and can hide /v1/models as an engine without it does.
type frontEngine struct {
	url       string
	generate  atomic.Int64 // POSTs to a generation endpoint
	models    atomic.Int64 // GETs of /v1/models
	mu        sync.Mutex
	gotHeader []http.Header
}

func startFront(t *testing.T, hideModels bool, tune func(*simengine.Config)) *frontEngine {
	t.Helper()
	cfg := simengine.DefaultConfig()
	cfg.TimeScale = 0.1
	if tune != nil {
		tune(&cfg)
	}
	sim, err := simengine.Start(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = sim.Close() })
	f := &frontEngine{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		f.mu.Lock()
		f.gotHeader = append(f.gotHeader, r.Header.Clone())
		f.mu.Unlock()
		switch {
		case r.URL.Path == "/v1/models":
			f.models.Add(1)
			if hideModels {
				http.NotFound(w, r)
				return
			}
		case r.Method == http.MethodPost:
			f.generate.Add(1)
		}
		sim.Handler().ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	f.url = srv.URL
	return f
}

// runArgs are the arguments of a short valid run against url.
func runArgs(t *testing.T, url string, extra ...string) []string {
	return append([]string{"run", "--base-url", url, "--model", "simengine-tiny", "--endpoint", "chat",
		"--workload", writeWorkload(t, twoRows), "--arrival", "constant", "--rate", "40", "--count", "4",
		"--schedule-lag-tolerance", "2s", "--no-progress"}, extra...)
}

func TestPreflightRefusesAModelTheEngineDoesNotServe(t *testing.T) {
	f := startFront(t, false, nil)
	args := runArgs(t, f.url, "--output", t.TempDir())
	for i, a := range args {
		if a == "simengine-tiny" {
			args[i] = "Qwen/Qwen3-0.6B"
		}
	}
	code, _, stderr := runCLI(args...)
	want := `model "Qwen/Qwen3-0.6B" is not served here; served: simengine-tiny`
	if code != 1 || !strings.Contains(stderr, want) {
		t.Fatalf("exit %d, stderr %q; want 1 and %q", code, stderr, want)
	}
	if n := f.generate.Load(); n != 0 {
		t.Fatalf("%d generation requests were sent; want none", n)
	}
}

func TestPreflightGoesOnWithoutAModelList(t *testing.T) {
	f := startFront(t, true, nil)
	code, _, stderr := runCLI(runArgs(t, f.url, "--output", t.TempDir())...)
	if code != 0 || !strings.Contains(stderr, "preflight: GET /v1/models answered HTTP 404: the engine does not list its models, so the model name was not checked") {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	// The probe and the 4 scheduled requests.
	if n := f.generate.Load(); n != 5 {
		t.Fatalf("%d generation requests; want the probe and 4", n)
	}
}

func TestPreflightProbeFailureShowsTheEnginesMessage(t *testing.T) {
	f := startFront(t, false, func(c *simengine.Config) { c.ErrorRate = 1 })
	code, _, stderr := runCLI(runArgs(t, f.url, "--output", t.TempDir())...)
	if code != 1 || !strings.Contains(stderr, "preflight: probe request failed (http_error): HTTP 500: simulated internal error") {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	if n := f.generate.Load(); n != 1 {
		t.Fatalf("%d generation requests; want only the probe", n)
	}
	// --skip-preflight sends the load anyway.
	code, _, stderr = runCLI(runArgs(t, f.url, "--output", t.TempDir(), "--skip-preflight")...)
	if code != 0 || f.models.Load() != 1 || f.generate.Load() != 5 {
		t.Fatalf("--skip-preflight: exit %d, models GETs %d, generations %d; stderr %q", code, f.models.Load(), f.generate.Load(), stderr)
	}
}

func TestRunRefusesBadEndpointsBeforeSendingAnything(t *testing.T) {
	f := startFront(t, false, nil)
	t.Setenv("SERVEBENCH_TEST_CRLF_KEY", "sk-abc\r\nX-Injected: 1")
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"dead port", runArgs(t, "http://127.0.0.1:1"), "preflight: GET /v1/models:"},
		{"ftp", runArgs(t, "ftp://127.0.0.1/"), `base URL "ftp://127.0.0.1/": want an http:// or https:// URL`},
		{"not a url", runArgs(t, "not a url"), `base URL "not a url": want an http:// or https:// URL`},
		{"no host", runArgs(t, "http:///v1"), "no host"},
		{"query", runArgs(t, f.url+"/?x=1"), "no query string allowed"},
		{"userinfo", runArgs(t, strings.Replace(f.url, "http://", "http://user:PASSWORD@", 1)), "user information (user:password@) is refused"},
		{"api key with CR/LF", runArgs(t, f.url, "--api-key-env", "SERVEBENCH_TEST_CRLF_KEY"), "SERVEBENCH_TEST_CRLF_KEY holds a CR or LF"},
		{"header without =", runArgs(t, f.url, "--header", "X-Gateway"), `want "Name: value" or NAME=VALUE`},
		{"header name with a space", runArgs(t, f.url, "--header", "X Gateway=1"), `header "X Gateway": the name holds ' '`},
		{"header value with LF", runArgs(t, f.url, "--header", "X-Gateway=a\nb"), `header "X-Gateway": the value holds a control character`},
	} {
		out := filepath.Join(t.TempDir(), "run")
		code, _, stderr := runCLI(append(tc.args, "--output", out)...)
		if code != 1 || !strings.Contains(stderr, tc.want) {
			t.Errorf("%s: exit %d, stderr %q; want 1 and %q", tc.name, code, stderr, tc.want)
		}
		if strings.Contains(stderr, "PASSWORD") {
			t.Errorf("%s: stderr shows the password: %q", tc.name, stderr)
		}
		if _, err := os.Stat(out); err == nil {
			t.Errorf("%s: the run directory was created", tc.name)
		}
	}
	if n := f.generate.Load() + f.models.Load(); n != 0 {
		t.Fatalf("%d requests reached the engine; want none", n)
	}
}

func TestHeaderFlagIsSentAndNeverWritten(t *testing.T) {
	f := startFront(t, false, nil)
	out := filepath.Join(t.TempDir(), "run")
	secret := "gw-SECRET-4242"
	code, stdout, stderr := runCLI(runArgs(t, f.url, "--output", out, "--header", "X-Gateway-Key="+secret,
		"--header", "X-Tenant=blue", "--format", "json")...)
	if code != 0 {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	f.mu.Lock()
	seen := f.gotHeader
	f.mu.Unlock()
	// The models GET, the probe and 4 requests each carried both headers.
	if len(seen) != 6 {
		t.Fatalf("%d requests reached the engine; want 6", len(seen))
	}
	for i, h := range seen {
		if h.Get("X-Gateway-Key") != secret || h.Get("X-Tenant") != "blue" {
			t.Fatalf("request %d headers %v", i, h)
		}
	}
	if strings.Contains(stdout+stderr, secret) {
		t.Fatal("the header value is on stdout or stderr")
	}
	entries, err := os.ReadDir(out)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		data, err := os.ReadFile(filepath.Join(out, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(data), secret) {
			t.Errorf("%s holds the header value", e.Name())
		}
	}
}

func TestOutputHoldingARunIsRefusedUnlessOverwrite(t *testing.T) {
	f := startFront(t, false, nil)
	out := filepath.Join(t.TempDir(), "run")
	if code, _, stderr := runCLI(runArgs(t, f.url, "--output", out, "--warmup", "2")...); code != 0 {
		t.Fatalf("first run: exit %d, stderr %q", code, stderr)
	}
	if _, err := os.Stat(filepath.Join(out, "warmup.jsonl")); err != nil {
		t.Fatal(err)
	}
	before := f.generate.Load()
	code, _, stderr := runCLI(runArgs(t, f.url, "--output", out)...)
	wantManifest(t, out, "run", "benchmark_report.json", "outcomes.jsonl", "report.html", "report.json", "report.txt", "requests.jsonl", "schedule.json", "warmup.jsonl")
	want := "--output " + out + " is not empty (it holds benchmark_report.json, manifest.json, outcomes.jsonl, report.html, report.json, and 4 more); give a new or empty directory, or --overwrite"
	if code != 1 || !strings.Contains(stderr, want) {
		t.Fatalf("second run: exit %d, stderr %q; want 1 and %q", code, stderr, want)
	}
	if f.generate.Load() != before {
		t.Fatal("the refused run sent requests")
	}
	// A file that is not servebench's stays through --overwrite.
	notes := filepath.Join(out, "notes.txt")
	if err := os.WriteFile(notes, []byte("mine"), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := runCLI(runArgs(t, f.url, "--output", out, "--overwrite")...); code != 0 {
		t.Fatalf("--overwrite: exit %d, stderr %q", code, stderr)
	}
	if _, err := os.Stat(filepath.Join(out, "warmup.jsonl")); !os.IsNotExist(err) {
		t.Fatalf("the first run's warmup.jsonl is still there (stat: %v)", err)
	}
	if _, err := os.Stat(notes); err != nil {
		t.Fatalf("--overwrite removed a file that is not servebench output: %v", err)
	}
	// The new manifest lists the new run's files, not the user's.
	wantManifest(t, out, "run", "benchmark_report.json", "outcomes.jsonl", "report.html", "report.json", "report.txt", "requests.jsonl", "schedule.json")
	code, stdout, _ := runCLI("score", "--format", "json", "--run", out)
	if code != 0 || !strings.Contains(stdout, `"offered": 4`) {
		t.Fatalf("the overwritten run does not score as itself: exit %d", code)
	}
}

func TestSweepAndDemoRefuseAnOutputHoldingServebenchOutput(t *testing.T) {
	f := startFront(t, false, nil)
	out := t.TempDir()
	if err := os.Mkdir(filepath.Join(out, "rate-5"), 0o755); err != nil {
		t.Fatal(err)
	}
	code, _, stderr := runCLI("sweep", "--rates", "5", "--base-url", f.url, "--model", "simengine-tiny", "--endpoint", "chat",
		"--workload", writeWorkload(t, twoRows), "--arrival", "constant", "--duration", "1s", "--output", out, "--no-progress")
	if code != 1 || !strings.Contains(stderr, "is not empty (it holds rate-5)") {
		t.Fatalf("sweep: exit %d, stderr %q", code, stderr)
	}
	// A directory servebench did not write (no manifest) is not emptied by
	// --overwrite: the user's rate-5 stays.
	code, _, stderr = runCLI("sweep", "--rates", "5", "--base-url", f.url, "--model", "simengine-tiny", "--endpoint", "chat",
		"--workload", writeWorkload(t, twoRows), "--arrival", "constant", "--duration", "1s", "--output", out, "--no-progress", "--overwrite")
	if code != 1 || !strings.Contains(stderr, "--overwrite: "+out+" is not empty and holds no manifest.json, so nothing in it is known to be servebench's; nothing was removed") {
		t.Fatalf("sweep --overwrite: exit %d, stderr %q", code, stderr)
	}
	if _, err := os.Stat(filepath.Join(out, "rate-5")); err != nil {
		t.Fatalf("--overwrite removed the user's rate-5: %v", err)
	}
	if f.generate.Load()+f.models.Load() != 0 {
		t.Fatal("the refused sweep sent requests")
	}
	code, _, stderr = runCLI("demo", "--output", out, "--rates", "1")
	if code != 1 || !strings.Contains(stderr, "is not empty (it holds rate-5)") {
		t.Fatalf("demo: exit %d, stderr %q", code, stderr)
	}
}

func TestScoreRunKeepsTheObjectivesItIsNotGiven(t *testing.T) {
	f := startFront(t, false, nil)
	out := filepath.Join(t.TempDir(), "run")
	if code, _, stderr := runCLI(runArgs(t, f.url, "--output", out, "--ttft-slo", "5s", "--tpot-slo", "7ms", "--e2e-slo", "9s")...); code != 0 {
		t.Fatalf("run: exit %d, stderr %q", code, stderr)
	}
	code, stdout, stderr := runCLI("score", "--format", "json", "--run", out, "--ttft-slo", "1us")
	if code != 0 {
		t.Fatalf("score: exit %d, stderr %q", code, stderr)
	}
	want := `"slo": {
    "ttft_ms": 0.001,
    "tpot_ms": 7,
    "e2e_ms": 9000
  }`
	if !strings.Contains(stdout, want) {
		t.Fatalf("re-scored report lacks %s:\n%.600s", want, stdout)
	}
}

func TestEveryWarmupRequestFailingStopsTheRun(t *testing.T) {
	// The preflight is skipped so that the warmup meets the failure first.
	f := startFront(t, false, func(c *simengine.Config) { c.ErrorRate = 1 })
	code, _, stderr := runCLI(runArgs(t, f.url, "--output", t.TempDir(), "--warmup", "3", "--skip-preflight")...)
	want := "every warmup request failed (3 of 3); the engine said: http_error: HTTP 500: simulated internal error (http_error fault) (3×); no load was sent"
	if code != 1 || !strings.Contains(stderr, want) {
		t.Fatalf("exit %d, stderr %q; want 1 and %q", code, stderr, want)
	}
	if n := f.generate.Load(); n != 3 {
		t.Fatalf("%d generation requests; want the 3 warmup requests only", n)
	}
}

func TestMergeRefusesAnOutputHoldingServebenchOutputUnlessOverwrite(t *testing.T) {
	out := t.TempDir()
	if err := os.WriteFile(filepath.Join(out, "report.json"), []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	shard := filepath.Join(t.TempDir(), "missing-shard")
	code, _, stderr := runCLI("merge", "--output", out, shard)
	if code != 1 || !strings.Contains(stderr, "is not empty (it holds report.json)") {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	// Without a manifest nothing there is known to be servebench's:
	// --overwrite refuses and removes nothing.
	code, _, stderr = runCLI("merge", "--output", out, "--overwrite", shard)
	if code != 1 || !strings.Contains(stderr, "holds no manifest.json") {
		t.Fatalf("--overwrite: exit %d, stderr %q", code, stderr)
	}
	if _, err := os.Stat(filepath.Join(out, "report.json")); err != nil {
		t.Fatalf("the user's report.json was removed: %v", err)
	}
}

func TestHeaderValueEchoedInAnErrorIsRedacted(t *testing.T) {
	secret := "gw-SECRET-4242"
	// A gateway that refuses the key, quoting it back.
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusUnauthorized)
		_, _ = w.Write([]byte(`{"error":{"message":"key ` + r.Header.Get("X-Gateway-Key") + ` is not allowed","type":"auth"}}`))
	}))
	t.Cleanup(srv.Close)
	code, _, stderr := runCLI(runArgs(t, srv.URL, "--output", t.TempDir(), "--header", "X-Gateway-Key="+secret)...)
	if code != 1 || !strings.Contains(stderr, "GET /v1/models: HTTP 401") || !strings.Contains(stderr, "key [redacted] is not allowed") {
		t.Fatalf("preflight: exit %d, stderr %q", code, stderr)
	}
	out := filepath.Join(t.TempDir(), "run")
	code, stdout, stderr := runCLI(runArgs(t, srv.URL, "--output", out, "--header", "X-Gateway-Key="+secret, "--skip-preflight")...)
	if code != 0 || !strings.Contains(stdout, "key [redacted] is not allowed") {
		t.Fatalf("run: exit %d, stdout:\n%s\nstderr %q", code, stdout, stderr)
	}
	if strings.Contains(stdout+stderr, secret) {
		t.Fatal("the header value is on stdout or stderr")
	}
	entries, err := os.ReadDir(out)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		data, err := os.ReadFile(filepath.Join(out, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(data), secret) {
			t.Errorf("%s holds the header value", e.Name())
		}
		if e.Name() == "outcomes.jsonl" && !strings.Contains(string(data), "key [redacted] is not allowed") {
			t.Errorf("outcomes.jsonl lacks the redacted message:\n%s", data)
		}
	}
}
