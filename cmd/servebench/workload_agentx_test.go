package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/servebench/servebench/fixtures"
	"github.com/servebench/servebench/fixtures/traces"
)

// agentxCLITrace is an AgentX trace of a parent call, a subagent's call and
// the parent's second call.
const agentxCLITrace = `{"id":"job","block_size":4,"requests":[` +
	`{"t":0,"type":"n","in":8,"out":3,"hash_ids":[1,2],"api_time":0.01},` +
	`{"t":0.02,"type":"subagent","agent_id":"agent_001","requests":[{"t":0.02,"type":"n","in":6,"out":2,"hash_ids":[7],"api_time":0.01}]},` +
	`{"t":9,"type":"s","in":16,"out":2,"hash_ids":[1,2,5,6]}]}
`

// "workload import agentx" writes the importer's rows and the side file,
// with --idle-gap-cap capping the parent's 9 s wait.
func TestWorkloadImportAgentX(t *testing.T) {
	src := filepath.Join(t.TempDir(), "traces.jsonl")
	if err := os.WriteFile(src, []byte(agentxCLITrace), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "agents.jsonl")
	code, stdout, stderr := runCLI("workload", "import", "agentx", src, "--output", out, "--seed", "2", "--idle-gap-cap", "20ms")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.HasPrefix(stdout, out+": 3 rows, sha256 ") {
		t.Fatalf("stdout %q", stdout)
	}
	var want bytes.Buffer
	if _, err := traces.ImportAgentX(&want, strings.NewReader(agentxCLITrace), src, traces.AgentXOptions{Seed: 2, IdleGapCap: "20ms"}); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(out)
	if !bytes.Equal(got, want.Bytes()) || !strings.Contains(string(got), `"think_ms":20,`) {
		t.Fatalf("rows differ from the importer's, or the 9 s gap is not capped at 20 ms:\n%s\nwant\n%s", got, want.Bytes())
	}
	var meta struct {
		Parameters struct {
			Importer string               `json:"importer"`
			Options  traces.AgentXOptions `json:"options"`
		} `json:"parameters"`
	}
	side, _ := os.ReadFile(fixtures.MetaPath(out))
	if err := json.Unmarshal(side, &meta); err != nil || meta.Parameters.Importer != "agentx" || meta.Parameters.Options.IdleGapCap != "20ms" {
		t.Fatalf("side file %s (%v)", side, err)
	}
}

// An imported AgentX trace replays on the Messages API: every call
// succeeds, the subagent's among them.
func TestImportedAgentXReplaysOnMessages(t *testing.T) {
	src := filepath.Join(t.TempDir(), "traces.jsonl")
	if err := os.WriteFile(src, []byte(agentxCLITrace), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "agents.jsonl")
	if code, _, stderr := runCLI("workload", "import", "agentx", src, "--output", out, "--output-policy", "natural", "--idle-gap-cap", "10ms"); code != 0 {
		t.Fatalf("import: exit %d: %s", code, stderr)
	}
	url := startSim(t, nil)
	dir := filepath.Join(t.TempDir(), "run")
	code, _, stderr := runCLI("run", "--base-url", url, "--model", "simengine-tiny", "--endpoint", "messages", "--workload", out,
		"--users", "1", "--count", "1", "--schedule-lag-tolerance", "2s", "--output", dir, "--format", "json", "--no-progress")
	if code != 0 {
		t.Fatalf("run: exit %d: %s", code, stderr)
	}
	raw, err := os.ReadFile(filepath.Join(dir, "report.json"))
	if err != nil {
		t.Fatal(err)
	}
	var rep struct {
		Offered  int `json:"offered"`
		Sessions struct {
			Offered   int `json:"offered"`
			Qualified int `json:"qualified"`
		} `json:"sessions"`
		StatusCounts map[string]int `json:"status_counts"`
	}
	if err := json.Unmarshal(raw, &rep); err != nil {
		t.Fatal(err)
	}
	if rep.Offered != 3 || rep.StatusCounts["success"] != 3 || rep.Sessions.Offered != 1 {
		t.Fatalf("offered %d, statuses %v, sessions %+v: want 3 successful calls of 1 session", rep.Offered, rep.StatusCounts, rep.Sessions)
	}
}
