package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/servebench/servebench/fixtures/simengine"
	"github.com/servebench/servebench/servebench/record"
)

// TestRunLoadsAdaptersBeforeThePreflight: the engine serves no adapter,
// so the preflight passes the mix sql, chat only because --load-adapters
// loaded both first (each at least the engine's 200 ms model time x 0.1).
func TestRunLoadsAdaptersBeforeThePreflight(t *testing.T) {
	url := startSim(t, func(c *simengine.Config) { c.AdapterLoadCost = 200 * time.Millisecond })
	out := filepath.Join(t.TempDir(), "run")
	code, _, stderr := runCLI("run", "--base-url", url, "--model", "simengine-tiny", "--workload", writeWorkload(t, twoRows),
		"--arrival", "constant", "--rate", "40", "--count", "4", "--output", out, "--no-progress", "--schedule-lag-tolerance", "10s",
		"--adapters", "sql=1,chat=1", "--load-adapters", "sql=/models/sql,chat=/models/chat")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.Contains(stderr, "adapter sql loaded in ") || !strings.Contains(stderr, "(POST /v1/load_lora_adapter, HTTP 200)") {
		t.Errorf("stderr does not say what the loads took: %s", stderr)
	}
	raw, err := os.ReadFile(filepath.Join(out, record.ReportFile))
	if err != nil {
		t.Fatal(err)
	}
	var rep struct {
		AdapterLoads []struct {
			Adapter string  `json:"adapter"`
			LoadMS  float64 `json:"load_ms"`
		} `json:"adapter_loads"`
	}
	if err := json.Unmarshal(raw, &rep); err != nil {
		t.Fatal(err)
	}
	if len(rep.AdapterLoads) != 2 || rep.AdapterLoads[0].Adapter != "sql" || rep.AdapterLoads[1].Adapter != "chat" ||
		rep.AdapterLoads[0].LoadMS < 20 || rep.AdapterLoads[1].LoadMS < 20 {
		t.Errorf("adapter_loads %+v, want sql then chat, each at least 20 ms", rep.AdapterLoads)
	}
}

// TestAFailedAdapterLoadExitsOneBeforeAnyLoad: the engine serves sql
// already, so loading it again is refused; the run exits 1 naming the
// adapter, route, status and message, and writes no outcome.
func TestAFailedAdapterLoadExitsOneBeforeAnyLoad(t *testing.T) {
	url := startSim(t, func(c *simengine.Config) { c.Adapters = []string{"sql"} })
	out := filepath.Join(t.TempDir(), "run")
	code, _, stderr := runCLI("run", "--base-url", url, "--model", "simengine-tiny", "--workload", writeWorkload(t, twoRows),
		"--arrival", "constant", "--rate", "40", "--count", "4", "--output", out, "--no-progress",
		"--load-adapters", "sql=/models/sql")
	want := `load adapter "sql": POST /v1/load_lora_adapter: HTTP 400: The lora adapter 'sql' has already been loaded.`
	if code != 1 || !strings.Contains(stderr, want) {
		t.Fatalf("exit %d, stderr %q; want 1 and %q", code, stderr, want)
	}
	if _, err := os.Stat(filepath.Join(out, record.OutcomesFile)); !os.IsNotExist(err) {
		t.Errorf("outcomes.jsonl after a failed load (%v)", err)
	}
}

// The same command twice against one engine: the first run unloads what it
// loaded, so the second loads it again; with --keep-adapters the adapter
// stays, and the next load of it is refused.
func TestARunLeavesTheEngineAsItFoundIt(t *testing.T) {
	url := startSim(t, nil)
	args := func(extra ...string) []string {
		return append([]string{"run", "--base-url", url, "--model", "simengine-tiny", "--workload", writeWorkload(t, twoRows),
			"--arrival", "constant", "--rate", "40", "--count", "2", "--output", filepath.Join(t.TempDir(), "run"), "--no-progress",
			"--schedule-lag-tolerance", "10s", // exit 0 must not hang on how punctually a busy machine sends
			"--adapters", "sql=1", "--load-adapters", "sql=/models/sql"}, extra...)
	}
	for i := range 2 {
		code, _, stderr := runCLI(args()...)
		if code != 0 || !strings.Contains(stderr, "adapters unloaded: sql") {
			t.Fatalf("run %d: exit %d, stderr %s", i+1, code, stderr)
		}
	}
	if code, _, stderr := runCLI(args("--keep-adapters")...); code != 0 || strings.Contains(stderr, "unloaded") {
		t.Fatalf("--keep-adapters: exit %d, stderr %s", code, stderr)
	}
	if code, _, stderr := runCLI(args()...); code != 1 || !strings.Contains(stderr, "has already been loaded") {
		t.Errorf("after --keep-adapters: exit %d, stderr %s; want 1, the engine's refusal", code, stderr)
	}
}
