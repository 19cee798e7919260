package suites

import (
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/servebench/servebench/internal/outputdir"
	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/servebench/report"
)

// unjudgedContract runs 20 requests against the simulated engine, which
// serves no conversations, no tenant and no speculative decoding; extra is
// appended (unjudged: fail).
const unjudgedContract = `name: unjudged
engine:
  kind: simengine
  args: ["--time-scale=0.1", "--seed=7"]
endpoint: chat
workload:
  file: w.jsonl
arrival:
  process: constant
  rate: 20
count: 20
schedule_lag_tolerance: 5s
objectives:
  attainment: 0.5
  percentiles:
    - {metric: e2e, p: 50, below: 1h}
    - {metric: ttft, p: 99, below: 1h}
  sessions: {attainment: 0.9}
  fairness: {dimension: tenant, jain_at_least: 0.9}
  speculative_decoding: {acceptance_rate_at_least: 0.5}
`

// checkUnjudgedContract checks unjudgedContract with extra appended and
// returns its verdicts and its load point's report as written.
func checkUnjudgedContract(t *testing.T, extra string) (*Contract, []Verdict, *report.Report) {
	t.Helper()
	dir := t.TempDir()
	t.Setenv(EnvArtifacts, filepath.Join(dir, "runs"))
	if err := os.WriteFile(filepath.Join(dir, "w.jsonl"), []byte(`{"id":"a","prompt":"hi","max_tokens":4}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	c, err := Parse(filepath.Join(dir, "unjudged.yaml"), []byte(unjudgedContract+extra))
	if err != nil {
		t.Fatal(err)
	}
	vs := Check(context.Background(), c, io.Discard)
	paths, _ := filepath.Glob(filepath.Join(dir, "runs", "*", "*", record.ReportFile))
	if len(paths) != 1 {
		t.Fatalf("run directories: %v; verdicts %+v", paths, vs)
	}
	rep, err := report.ReadFile(paths[0])
	if err != nil {
		t.Fatal(err)
	}
	// The run directory's manifest lists report.json at the size it has
	// with its objectives.
	b, err := os.ReadFile(filepath.Join(filepath.Dir(paths[0]), outputdir.ManifestFile))
	if err != nil {
		t.Fatal(err)
	}
	var m outputdir.Manifest
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(paths[0])
	if err != nil {
		t.Fatal(err)
	}
	listed := false
	for _, e := range m.Entries {
		if e.Path == record.ReportFile {
			listed = e.Size == fi.Size()
		}
	}
	if !listed {
		t.Errorf("manifest.json does not list report.json at its %d bytes:\n%s", fi.Size(), b)
	}
	return c, vs, rep
}

// Every objective the run has no data for is unjudged, in the contract's
// verdicts and in report.json, with what is missing: the p99 of 20 TTFTs
// (0 beyond it, 500 needed for 5), sessions of a workload without
// conversations, Jain's index over tenants when no request carried one,
// and an acceptance rate from an engine without speculative-decoding
// counters. Attainment (20 of 20 = 1 against 0.5) and the p50 of 20 E2Es
// (10 beyond it) are judged, with their values and bounds.
func TestObjectivesWithoutTheirDataAreUnjudgedInTheReport(t *testing.T) {
	c, vs, rep := checkUnjudgedContract(t, "")
	if rep.Offered != 20 || rep.Qualified != 20 || rep.EngineMetrics == nil {
		t.Fatalf("report: offered %d, qualified %d, engine metrics %+v", rep.Offered, rep.Qualified, rep.EngineMetrics)
	}
	e2eP50 := rep.Percentiles[record.MetricE2E].P50
	ttftPopulation := rep.Percentiles[record.MetricTTFT].Population
	type row struct {
		source   string
		verdict  report.ObjectiveOutcome
		measured *float64
		bound    *float64
		unit     string
		reason   string
	}
	want := []row{
		{"contract", report.ObjectivePass, nil, nil, "", ""},
		{"objectives.valid_load", report.ObjectivePass, nil, nil, "", ""},
		{"objectives.attainment", report.ObjectivePass, new(1.0), new(0.5), "fraction", "measured 1.000 (20 of 20)"},
		{"objectives.percentiles[0]", report.ObjectivePass, e2eP50, new(3.6e6), "ms", ""},
		{"objectives.percentiles[1]", report.ObjectiveUnjudged, nil, new(3.6e6), "ms",
			"p99 TTFT needs at least 500 observations for 5 to lie beyond it, and its population has 20 (" + ttftPopulation + ")"},
		{"objectives.sessions.attainment", report.ObjectiveUnjudged, nil, new(0.9), "fraction",
			"the session attainment was not measured: the report has no sessions (the workload has no conversations)"},
		{"objectives.fairness", report.ObjectiveUnjudged, nil, new(0.9), "index",
			"Jain's index over tenant was not measured: no request carried a tenant"},
		{"objectives.speculative_decoding.acceptance_rate_at_least", report.ObjectiveUnjudged, nil, new(0.5), "fraction",
			"the acceptance rate was not measured: the engine at " + rep.EngineMetrics.URL + " exposes no speculative-decoding counter (vllm:spec_decode_num_drafts_total)"},
	}
	if len(rep.Objectives) != len(want) || len(vs) != len(want) {
		t.Fatalf("report.json objectives %+v\nverdicts %+v", rep.Objectives, vs)
	}
	same := func(a, b *float64) bool { return (a == nil) == (b == nil) && (a == nil || *a == *b) }
	for i, w := range want {
		o := rep.Objectives[i]
		if o.Source != w.source || o.Verdict != w.verdict || !same(o.Measured, w.measured) || !same(o.Bound, w.bound) || o.Unit != w.unit ||
			(w.reason != "" && o.Reason != w.reason) || o.Name != vs[i].Name {
			t.Errorf("objective %d: %+v, want %+v", i, o, w)
		}
		wantOutcome := map[report.ObjectiveOutcome]Outcome{report.ObjectivePass: Passed, report.ObjectiveUnjudged: Unjudged}[w.verdict]
		if vs[i].Outcome != wantOutcome || vs[i].ExitCode != 0 || (w.verdict == report.ObjectiveUnjudged && vs[i].Message != w.reason) {
			t.Errorf("verdict %d: %+v, want %s", i, vs[i], wantOutcome)
		}
	}
	// The step summary's rows say the same.
	summary := ContractStepSummary(c, vs)
	for _, row := range []string{
		"/unjudged.yaml:18, constant 20 requests at 20 req/s | no value: the session attainment was not measured: the report has no sessions (the workload has no conversations) | >= 0.900 | unjudged |\n",
		"/unjudged.yaml:19, constant 20 requests at 20 req/s | no value: Jain's index over tenant was not measured: no request carried a tenant | >= 0.900 | unjudged |\n",
	} {
		if !strings.Contains(summary, row) {
			t.Errorf("step summary has no %q:\n%s", row, summary)
		}
	}
}

// Under unjudged: fail each objective without its data fails (exit 3),
// in the verdicts and in report.json, saying it was unjudged.
func TestUnjudgedFailMakesThemFailuresInTheReport(t *testing.T) {
	_, vs, rep := checkUnjudgedContract(t, "unjudged: fail\n")
	if len(rep.Objectives) != 8 || len(vs) != 8 {
		t.Fatalf("report.json objectives %+v", rep.Objectives)
	}
	for i := 4; i < 8; i++ {
		o, v := rep.Objectives[i], vs[i]
		if o.Verdict != report.ObjectiveFail || !strings.HasPrefix(o.Reason, "unjudged: ") ||
			!strings.HasSuffix(o.Reason, "(unjudged: fail makes an objective without its data a failure)") ||
			v.Outcome != Failed || v.ExitCode != 3 {
			t.Errorf("objective %d: %+v; verdict %+v", i, o, v)
		}
	}
	if rep.Objectives[2].Verdict != report.ObjectivePass {
		t.Errorf("attainment: %+v", rep.Objectives[2])
	}
}
