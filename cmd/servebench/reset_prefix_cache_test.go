package main

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/servebench/servebench/fixtures/simengine"
	"github.com/servebench/servebench/servebench/report"
)

// readReport reads a run directory's report.json.
func readReport(t *testing.T, dir string) report.Report {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, "report.json"))
	if err != nil {
		t.Fatal(err)
	}
	var rep report.Report
	if err := json.Unmarshal(b, &rep); err != nil {
		t.Fatal(err)
	}
	return rep
}

// A run with --reset-prefix-cache against the simulated engine records
// cache_state reset and the policy the workload's side file declares for
// its bytes; one without records uncontrolled. compare refuses the pair,
// naming the cache state, and lists it as an allowed difference with
// --allow-different-workloads.
func TestResetPrefixCacheFlagRecordsTheCacheStateAndCompareRefusesAMix(t *testing.T) {
	url := startSim(t, func(c *simengine.Config) { c.PrefixCaching = true })
	rows := twoRows
	wl := writeWorkload(t, rows)
	sum := sha256.Sum256([]byte(rows))
	meta := fmt.Sprintf(`{"schema":"servebench.workload-meta/v1","workload":"w.jsonl","workload_sha256":%q,"summary":{"cache_policy":"warm"}}`, hex.EncodeToString(sum[:]))
	if err := os.WriteFile(strings.TrimSuffix(wl, ".jsonl")+".meta.json", []byte(meta), 0o644); err != nil {
		t.Fatal(err)
	}
	dirs := map[bool]string{}
	for _, reset := range []bool{true, false} {
		dirs[reset] = filepath.Join(t.TempDir(), "run")
		args := []string{"run", "--base-url", url, "--model", "simengine-tiny", "--endpoint", "chat", "--workload", wl,
			"--arrival", "constant", "--rate", "40", "--count", "4", "--schedule-lag-tolerance", "2s", "--output", dirs[reset], "--no-progress"}
		if reset {
			args = append(args, "--reset-prefix-cache")
		}
		if code, _, stderr := runCLI(args...); code != 0 {
			t.Fatalf("reset %v: exit %d\n%s", reset, code, stderr)
		}
	}
	if rep := readReport(t, dirs[true]); rep.CacheState != "reset" || rep.CachePolicy != "warm" || rep.CacheResetRoute != "/reset_prefix_cache" {
		t.Fatalf("reset run: state %q policy %q route %q, want reset, warm, /reset_prefix_cache", rep.CacheState, rep.CachePolicy, rep.CacheResetRoute)
	}
	if rep := readReport(t, dirs[false]); rep.CacheState != "uncontrolled" || rep.CachePolicy != "warm" {
		t.Fatalf("plain run: state %q policy %q, want uncontrolled and warm", rep.CacheState, rep.CachePolicy)
	}
	code, _, stderr := runCLI("compare", dirs[false], dirs[true])
	if code != 1 || !strings.Contains(stderr, "cache state reset differs from the first baseline run's uncontrolled") {
		t.Fatalf("compare of a mix: exit %d, want 1 naming the cache state\n%s", code, stderr)
	}
	code, stdout, stderr := runCLI("compare", "--allow-different-workloads", dirs[false], dirs[true])
	if code == 1 || !strings.Contains(stdout, "cache state reset differs") {
		t.Fatalf("allowed: exit %d, want the difference listed\n%s%s", code, stdout, stderr)
	}
}

// A reset the engine refuses (vLLM without VLLM_SERVER_DEV_MODE=1 answers
// 404) exits 1 before any load: the error gives the engine's answer and
// names the variable, and the engine saw only the preflight's probe.
func TestResetPrefixCacheFailureExitsOneBeforeLoad(t *testing.T) {
	srv := simengine.StartTest(t, func(c *simengine.Config) { c.TimeScale = 0.1 })
	front := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/reset_prefix_cache" || r.URL.Path == "/flush_cache" {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusNotFound)
			_, _ = w.Write([]byte(`{"detail":"Not Found"}`))
			return
		}
		srv.Handler().ServeHTTP(w, r)
	}))
	t.Cleanup(front.Close)
	out := filepath.Join(t.TempDir(), "run")
	code, _, stderr := runCLI("run", "--base-url", front.URL, "--model", "simengine-tiny", "--endpoint", "chat",
		"--workload", writeWorkload(t, twoRows), "--arrival", "constant", "--rate", "40", "--count", "4",
		"--output", out, "--no-progress", "--reset-prefix-cache")
	if code != 1 || !strings.Contains(stderr, "POST /reset_prefix_cache: HTTP 404: Not Found") || !strings.Contains(stderr, "VLLM_SERVER_DEV_MODE=1") {
		t.Fatalf("exit %d, want 1 with the engine's answer and the variable\n%s", code, stderr)
	}
	if n := srv.Stats().Submitted; n != 1 {
		t.Fatalf("the engine saw %d requests, want the preflight probe alone", n)
	}
	if _, err := os.Stat(filepath.Join(out, "outcomes.jsonl")); !os.IsNotExist(err) {
		t.Fatalf("outcomes.jsonl exists (%v)", err)
	}
}
