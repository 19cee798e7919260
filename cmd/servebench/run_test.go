package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/servebench/servebench/fixtures/simengine"
	"github.com/servebench/servebench/servebench/report"
)

// runCLI runs the command in-process and returns its exit code and output.
func runCLI(args ...string) (int, string, string) {
	var stdout, stderr bytes.Buffer
	code := dispatch(args, &stdout, &stderr)
	return code, stdout.String(), stderr.String()
}

func startSim(t *testing.T, tune func(*simengine.Config)) string {
	t.Helper()
	cfg := simengine.DefaultConfig()
	cfg.TimeScale = 0.1
	if tune != nil {
		tune(&cfg)
	}
	srv, err := simengine.Start(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = srv.Close() })
	return srv.BaseURL()
}

func writeWorkload(t *testing.T, rows string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "w.jsonl")
	if err := os.WriteFile(p, []byte(rows), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

const twoRows = `{"id":"a","prompt":"is the pager quiet","max_tokens":4,"ignore_eos":true}
{"id":"b","messages":[{"role":"user","content":"summarize"}],"max_tokens":4,"ignore_eos":true}
`

func TestRunCommandWritesTheRunDirectoryAndExitsZero(t *testing.T) {
	url := startSim(t, nil)
	out := filepath.Join(t.TempDir(), "run")
	code, stdout, stderr := runCLI("run", "--base-url", url, "--model", "simengine-tiny", "--endpoint", "chat",
		"--workload", writeWorkload(t, twoRows), "--arrival", "constant", "--rate", "40", "--count", "8",
		"--schedule-lag-tolerance", "2s", "--output", out, "--format", "json", "--no-progress", "--metrics-url", url+"/metrics")
	if code != 0 {
		t.Fatalf("exit %d, stderr:\n%s", code, stderr)
	}
	var rep report.Report
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil {
		t.Fatalf("stdout is not the JSON report: %v\n%s", err, stdout)
	}
	if rep.Offered != 8 || rep.ProtocolSuccesses != 8 || !rep.Valid {
		t.Fatalf("report: offered %d, successes %d, valid %v", rep.Offered, rep.ProtocolSuccesses, rep.Valid)
	}
	for _, f := range []string{"schedule.json", "outcomes.jsonl", "report.json"} {
		if _, err := os.Stat(filepath.Join(out, f)); err != nil {
			t.Errorf("missing %s: %v", f, err)
		}
	}
	if !strings.Contains(stderr, "run directory: "+out) {
		t.Errorf("stderr does not name the run directory:\n%s", stderr)
	}
	// Re-scoring with an impossible TTFT bound changes the verdict but
	// keeps what only the run observed: the engine's own metrics.
	code, stdout, stderr = runCLI("score", "--format", "json", "--run", out, "--ttft-slo", "1us")
	var again report.Report
	if code != 0 || json.Unmarshal([]byte(stdout), &again) != nil {
		t.Fatalf("score --run: exit %d, stderr:\n%s", code, stderr)
	}
	if again.Qualified != 0 || again.EngineMetrics == nil ||
		again.EngineMetrics.Counters[`vllm:generation_tokens_total{model_name="simengine-tiny"}`] != 32 {
		t.Fatalf("re-scored: qualified %d, engine metrics %+v; want 0 and the run's 8 x 4 generated tokens", again.Qualified, again.EngineMetrics)
	}
}

func TestRunCommandRequireAttainmentExitsThree(t *testing.T) {
	// Every request fails with HTTP 500: the load is delivered (exit 0
	// without the flag) but attainment is 0 of 6. The preflight's probe
	// would fail too, so it is skipped.
	url := startSim(t, func(c *simengine.Config) { c.ErrorRate = 1 })
	args := []string{"run", "--base-url", url, "--model", "simengine-tiny", "--endpoint", "chat",
		"--workload", writeWorkload(t, twoRows), "--arrival", "poisson", "--rate", "50", "--count", "6",
		"--schedule-lag-tolerance", "2s", "--no-progress", "--skip-preflight"}
	code, stdout, stderr := runCLI(append(args, "--output", t.TempDir())...)
	if code != 0 || !strings.Contains(stdout, "failed:      6 of 6 offered: http_error 6\n") ||
		!strings.Contains(stdout, "verdict:     pass: the load was delivered; no gate declared (--require-attainment, --threshold)\n") {
		t.Fatalf("without --require-attainment: exit %d (want 0), stdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	code, stdout, stderr = runCLI(append(args, "--output", t.TempDir(), "--require-attainment", "0.9")...)
	if code != 3 || !strings.Contains(stderr, "attainment 0.000 (0 of 6 offered) is below the required 0.900") ||
		!strings.Contains(stdout, "verdict:     FAIL: attainment 0.000 (0 of 6 offered) is below the required 0.900 (exit 3)\n") {
		t.Fatalf("exit %d (want 3), stdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
}

func TestRunCommandBadInputExitsOne(t *testing.T) {
	wl := writeWorkload(t, twoRows)
	bad := writeWorkload(t, "{\"prompt\":\"x\"}\n")
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--model", "m", "--workload", wl, "--count", "1", "--output", "o"}, "--base-url is required"},
		{[]string{"--base-url", "http://127.0.0.1:1", "--model", "m", "--workload", wl, "--output", "o"}, "give --count or --duration"},
		{[]string{"--base-url", "http://127.0.0.1:1", "--model", "m", "--workload", bad, "--count", "1", "--output", "o"}, "w.jsonl:1: max_tokens"},
		{[]string{"--base-url", "http://127.0.0.1:1", "--model", "m", "--workload", wl, "--count", "1", "--output", "o", "--arrival", "sine", "--rate", "1"}, `unknown process "sine"`},
		{[]string{"--base-url", "http://127.0.0.1:1", "--model", "m", "--workload", wl, "--count", "1", "--output", "o", "--rate", "1", "--endpoint", "score"},
			`--endpoint: unknown endpoint "score": want one of completions, chat, responses, messages, embeddings, rerank, rerank-tei, pair-score`},
		{[]string{"--base-url", "http://127.0.0.1:1", "--model", "m", "--workload", wl, "--count", "1", "--output", "o", "--rate", "1", "--endpoint", "embeddings", "--ttft-slo", "1s"},
			"--ttft-slo with --endpoint embeddings: a ttft objective cannot be judged on the embeddings endpoint"},
		{[]string{"--base-url", "http://127.0.0.1:1", "--model", "m", "--workload", wl, "--count", "1", "--output", t.TempDir(), "--rate", "1", "--endpoint", "embeddings"},
			`w.jsonl: this workload has no inputs for the embeddings endpoint: generate one with "servebench workload generate embeddings`},
		{[]string{"--base-url", "http://127.0.0.1:1", "--model", "m", "--workload", wl, "--count", "1", "--output", "o", "--rate", "1", "--api-key-env", "SERVEBENCH_TEST_UNSET_KEY"}, "SERVEBENCH_TEST_UNSET_KEY is empty or unset"},
		{[]string{"--base-url", "http://127.0.0.1:1", "--model", "m", "--workload", wl, "--count", "1", "--output", t.TempDir(), "--rate", "1", "--endpoint", "completions"}, `w.jsonl:2: prompt: the completions endpoint needs a prompt and row "b" has only messages`},
	} {
		code, _, stderr := runCLI(append([]string{"run"}, tc.args...)...)
		if code != 1 || !strings.Contains(stderr, tc.want) {
			t.Errorf("%v: exit %d, stderr %q; want 1 and %q", tc.args, code, stderr, tc.want)
		}
	}
}

func TestDemoFindsTheKnee(t *testing.T) {
	if testing.Short() {
		t.Skip("the demo sweeps for several seconds")
	}
	// Two short points: well below and far above the engine's capacity.
	out := t.TempDir()
	code, stdout, stderr := runCLI("demo", "--rates", "10,400", "--duration", "1500ms", "--output", out)
	if code != 0 {
		t.Fatalf("exit %d, stderr:\n%s", code, stderr)
	}
	wantManifest(t, out, "demo", "sweep.html", "sweep.json")
	// 400 req/s is 7.5 times the engine's computed capacity: it fails on
	// any machine. Whether 10 req/s passes is this machine's verdict: on a
	// loaded machine the generator can miss the demo's 20 ms lag tolerance
	// or a request its 10 ms TPOT objective, and then the knee line must
	// say that no rate passed. Either way the knee follows the table.
	wants := []string{"400 req/s fail: attainment", "knee: 10 req/s is the highest passing tested offered rate; 400 req/s does not pass",
		"report at 10 req/s:\nload:        poisson at 10 req/s, ", "full report: " + filepath.Join(out, "rate-10", "report.txt") + " (also report.json, report.html)\n"}
	// 10 req/s did not pass, and says why: its verdict is fail, or, when
	// the client was starved of CPU, invalid or generator_bound.
	if m := regexp.MustCompile(`(?m)^\s*10 req/s (\w+): `).FindStringSubmatch(stdout); m != nil {
		t.Logf("10 req/s was %s on this machine; checking the knee line that says so", m[1])
		if !strings.Contains(stdout, "knee: no tested rate passed") && !strings.Contains(stdout, "knee: not measured: the client was the limit") {
			t.Errorf("10 req/s did not pass, yet no knee line says that no rate passed:\n%s", stdout)
		}
		return
	}
	for _, want := range wants {
		if !strings.Contains(stdout, want) {
			t.Errorf("demo output lacks %q:\n%s", want, stdout)
		}
	}
}

func TestUnknownCommand(t *testing.T) {
	code, _, stderr := runCLI("bench")
	if code != 1 || !strings.Contains(stderr, `unknown command "bench"`) || !strings.Contains(stderr, "demo") {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
}

func TestSweepCommandSelectsTheCapacity(t *testing.T) {
	url := startSim(t, nil)
	out := t.TempDir()
	// The simulated engine (0.8 ms steps at this time scale) finishes these
	// four-token requests at hundreds per second: 5 and 10 req/s both pass.
	code, stdout, stderr := runCLI("sweep", "--rates", "10,5", "--base-url", url, "--model", "simengine-tiny",
		"--endpoint", "chat", "--workload", writeWorkload(t, twoRows), "--arrival", "constant", "--duration", "1s",
		"--schedule-lag-tolerance", "2s", "--no-backlog-growth=false", "--output", out, "--no-progress")
	if code != 0 {
		t.Fatalf("exit %d, stdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	if !strings.Contains(stdout, "knee: 10 req/s is the highest passing tested offered rate") {
		t.Fatalf("stdout:\n%s", stdout)
	}
	if !strings.Contains(stdout, "answer: SLO capacity at least 10 req/s (no tested point failed); confidence in the bracket 77% (from 10 req/s, not shown to pass)\n") {
		t.Errorf("stdout:\n%s", stdout)
	}
	for _, d := range []string{"rate-5", "rate-10"} {
		if _, err := os.Stat(filepath.Join(out, d, "report.json")); err != nil {
			t.Errorf("missing %s/report.json: %v", d, err)
		}
	}
	if code, _, stderr := runCLI("sweep", "--rates", "1", "--arrival", "closed"); code != 1 || !strings.Contains(stderr, "no offered rate") {
		t.Errorf("closed-loop sweep: exit %d, stderr %q", code, stderr)
	}
}
