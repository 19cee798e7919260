package main

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/servebench/servebench/fixtures"
	"github.com/servebench/servebench/fixtures/traces"
)

// agentTraceCSV is a TraceLab CSV of two sessions of two rounds.
const agentTraceCSV = `session_id,round_idx,prefix_len,input_len,output_len,arrival_time,tool_wait_after_ms
a,0,0,6,3,200,400
a,1,9,4,2,900,0
b,0,0,5,2,0,300
b,1,7,3,4,600,0
`

// writeGzipped writes s gzip-compressed under a name that does not say so.
func writeGzipped(t *testing.T, s string) string {
	t.Helper()
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	zw.Write([]byte(s))
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), "agents.csv")
	if err := os.WriteFile(p, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// "workload import tracelab" writes the importer's rows and the side file
// naming the importer and its options.
func TestWorkloadImportTraceLab(t *testing.T) {
	src := writeGzipped(t, agentTraceCSV)
	out := filepath.Join(t.TempDir(), "agents.jsonl")
	code, stdout, stderr := runCLI("workload", "import", "tracelab", src, "--output", out, "--seed", "5", "--max-output-tokens", "3", "--time-scale", "0.5")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.HasPrefix(stdout, out+": 3 rows, sha256 ") {
		t.Fatalf("stdout %q", stdout)
	}
	var want bytes.Buffer
	if _, err := traces.ImportTraceLab(&want, strings.NewReader(agentTraceCSV), src, traces.TraceLabOptions{Seed: 5, MaxOutputTokens: 3, TimeScale: 0.5}); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(out)
	if !bytes.Equal(got, want.Bytes()) {
		t.Fatalf("rows differ from the importer's:\n%s\nwant\n%s", got, want.Bytes())
	}
	var meta struct {
		Parameters struct {
			Importer string                 `json:"importer"`
			Options  traces.TraceLabOptions `json:"options"`
		} `json:"parameters"`
		Summary struct {
			Endpoint string         `json:"endpoint"`
			Dropped  map[string]int `json:"dropped"`
		} `json:"summary"`
	}
	side, _ := os.ReadFile(fixtures.MetaPath(out))
	if err := json.Unmarshal(side, &meta); err != nil {
		t.Fatal(err)
	}
	if meta.Parameters.Importer != "tracelab" || meta.Parameters.Options.MaxOutputTokens != 3 || meta.Summary.Endpoint != "chat" ||
		meta.Summary.Dropped["output_tokens above max_output_tokens 3 (the round and the rest of its session)"] != 1 {
		t.Fatalf("side file %s", side)
	}
}

// A refused row names the file, the line and the field.
func TestWorkloadImportTraceLabRefusalNamesTheLine(t *testing.T) {
	src := filepath.Join(t.TempDir(), "bad.jsonl")
	row := `{"session_id":"a","round_index":0,"input_tokens_total":5,"prefix_tokens":1,"newly_append_tokens":3,"output_tokens":2,"arrival_time_ms":0}`
	if err := os.WriteFile(src, []byte(row+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, stderr := runCLI("workload", "import", "tracelab", src, "--output", filepath.Join(t.TempDir(), "w.jsonl"))
	want := "servebench workload import: " + src + ":1: input_tokens_total: 5 is not prefix_tokens + newly_append_tokens = 1 + 3\n"
	if code != 1 || stderr != want {
		t.Fatalf("exit %d: %q\nwant %q", code, stderr, want)
	}
}

// An imported agent trace replays against the simulated engine: sessions
// start at their stored times, rounds follow their tool waits.
func TestImportedTraceLabReplaysAgainstTheSimulatedEngine(t *testing.T) {
	out := filepath.Join(t.TempDir(), "agents.jsonl")
	if code, _, stderr := runCLI("workload", "import", "tracelab", writeGzipped(t, agentTraceCSV), "--output", out, "--time-scale", "0.05"); code != 0 {
		t.Fatalf("import: exit %d: %s", code, stderr)
	}
	url := startSim(t, nil)
	dir := filepath.Join(t.TempDir(), "run")
	code, _, stderr := runCLI("run", "--base-url", url, "--model", "simengine-tiny", "--endpoint", "chat", "--workload", out,
		"--arrival", "replay", "--duration", "300ms", "--schedule-lag-tolerance", "2s", "--output", dir, "--format", "json", "--no-progress")
	if code != 0 {
		t.Fatalf("run: exit %d: %s", code, stderr)
	}
	raw, err := os.ReadFile(filepath.Join(dir, "requests.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	type sent struct {
		ID          string  `json:"id"`
		Status      string  `json:"status"`
		ScheduledMS float64 `json:"scheduled_ms"`
		SentMS      float64 `json:"sent_ms"`
		E2EMS       float64 `json:"e2e_ms"`
	}
	got := map[string]sent{}
	for _, line := range strings.Split(strings.TrimSpace(string(raw)), "\n") {
		var r sent
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatal(err)
		}
		if r.Status != "success" {
			t.Fatalf("%s: %s", r.ID, r.Status)
		}
		got[r.ID] = r
	}
	if len(got) != 4 || got["b-r0"].ScheduledMS != 0 || got["a-r0"].ScheduledMS != 10 {
		t.Fatalf("records %+v", got)
	}
	// A round is due its tool wait (times 0.05) after the previous one ended.
	for id, prev := range map[string]struct {
		id     string
		waitMS float64
	}{"a-r1": {"a-r0", 20}, "b-r1": {"b-r0", 15}} {
		p, r := got[prev.id], got[id]
		if due := p.SentMS + p.E2EMS + prev.waitMS; math.Abs(r.ScheduledMS-due) > 0.01 {
			t.Fatalf("%s scheduled at %v ms, want %v (the end of %s plus its tool wait)", id, r.ScheduledMS, due, prev.id)
		}
	}
}

// Replayed without a duration, the window covers every round of every
// session: the two sessions' second rounds, due after the last session
// start plus one mean gap (the window of the arrivals alone), are in the
// cohort with the first rounds.
func TestReplayedSessionsWithoutDurationScoreEveryRound(t *testing.T) {
	out := filepath.Join(t.TempDir(), "agents.jsonl")
	if code, _, stderr := runCLI("workload", "import", "tracelab", writeGzipped(t, agentTraceCSV), "--output", out, "--time-scale", "0.05"); code != 0 {
		t.Fatalf("import: exit %d: %s", code, stderr)
	}
	url := startSim(t, nil)
	dir := filepath.Join(t.TempDir(), "run")
	if code, _, stderr := runCLI("run", "--base-url", url, "--model", "simengine-tiny", "--endpoint", "chat", "--workload", out,
		"--arrival", "replay", "--schedule-lag-tolerance", "2s", "--output", dir, "--format", "json", "--no-progress"); code != 0 {
		t.Fatalf("run: exit %d: %s", code, stderr)
	}
	raw, err := os.ReadFile(filepath.Join(dir, "report.json"))
	if err != nil {
		t.Fatal(err)
	}
	var rep struct {
		Offered  int        `json:"offered"`
		WindowMS [2]float64 `json:"window_ms"`
		Sessions struct {
			Offered   int `json:"offered"`
			Completed int `json:"completed"`
		} `json:"sessions"`
	}
	if err := json.Unmarshal(raw, &rep); err != nil {
		t.Fatal(err)
	}
	// Sessions start at 0 (b) and 10 ms (a, 200 ms × 0.05): the arrivals'
	// own window is [0, 20) ms. a's second round is due at a's first
	// round's end plus 400 × 0.05 = 20 ms, past 30 ms.
	if rep.Offered != 4 || rep.Sessions.Offered != 2 || rep.Sessions.Completed != 2 || !(rep.WindowMS[1] > 30) {
		t.Fatalf("offered %d, sessions %+v, window %v: want 4 rounds of 2 completed sessions in a window past 30 ms", rep.Offered, rep.Sessions, rep.WindowMS)
	}
	lines, err := os.ReadFile(filepath.Join(dir, "requests.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range []string{`"a-r1"`, `"b-r1"`} {
		if !strings.Contains(string(lines), `"id":`+id) {
			t.Fatalf("requests.jsonl lacks %s:\n%s", id, lines)
		}
	}
	// Scored again from its files, the run keeps the window that covers
	// the sessions.
	code, stdout, stderr := runCLI("score", "--format", "json", "--run", dir)
	if code != 0 {
		t.Fatalf("score: exit %d: %s", code, stderr)
	}
	var again struct {
		Offered  int        `json:"offered"`
		WindowMS [2]float64 `json:"window_ms"`
	}
	if err := json.Unmarshal([]byte(stdout), &again); err != nil {
		t.Fatal(err)
	}
	if again.Offered != 4 || again.WindowMS != rep.WindowMS {
		t.Fatalf("scored again: offered %d, window %v; want 4 and %v", again.Offered, again.WindowMS, rep.WindowMS)
	}
}
