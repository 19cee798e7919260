package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/servebench/report"
	"github.com/servebench/servebench/servebench/schedule"
)

const (
	scoreCLITrace  = "../../servebench/score/testdata/seed000/trace.json"
	scoreCLIEvents = "../../servebench/score/testdata/seed000/events.jsonl"
)

// scoreCLI runs the command through the dispatcher with --format json,
// so that the tests can decode the report (a later --format wins).
func scoreCLI(args ...string) (code int, stdout, stderr string) {
	var out, errb bytes.Buffer
	code = dispatch(append([]string{"score", "--format", "json"}, args...), &out, &errb)
	return code, out.String(), errb.String()
}

// scoreCLIEdited writes the seed events transformed by edit to a temporary
// file and returns its path.
func scoreCLIEdited(t *testing.T, edit func(string) string) string {
	t.Helper()
	data, err := os.ReadFile(scoreCLIEvents)
	if err != nil {
		t.Fatal(err)
	}
	edited := edit(string(data))
	if edited == string(data) {
		t.Fatal("the edit changed nothing")
	}
	path := filepath.Join(t.TempDir(), "events.jsonl")
	if err := os.WriteFile(path, []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// scoreCLIReport decodes the JSON report on stdout.
func scoreCLIReport(t *testing.T, stdout string) *report.Report {
	t.Helper()
	var r report.Report
	if err := json.Unmarshal([]byte(stdout), &r); err != nil {
		t.Fatalf("stdout is not a JSON report: %v\n%s", err, stdout)
	}
	return &r
}

func TestScoreCommandValidInputExitsZero(t *testing.T) {
	code, out, errOut := scoreCLI(scoreCLITrace, scoreCLIEvents)
	if code != 0 || errOut != "" {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	r := scoreCLIReport(t, out)
	if r.Offered != 6 || r.Qualified != 3 || *r.Attainment != 0.5 || r.HorizonMS != 2500 || *r.QualifiedRPS != 1.2 || !r.Valid {
		t.Fatalf("report %s", r.GomegaString())
	}
	if r.Inputs.TraceSHA256 == "" || r.PercentileMethod != "nearest-rank" {
		t.Fatalf("inputs %+v method %q", r.Inputs, r.PercentileMethod)
	}
}

func TestScoreCommandDroppedTimeoutExitsOne(t *testing.T) {
	events := scoreCLIEdited(t, func(s string) string {
		lines := strings.Split(strings.TrimSpace(s), "\n")
		return strings.Join(lines[:5], "\n") + "\n"
	})
	code, out, errOut := scoreCLI(scoreCLITrace, events)
	if code != 1 || out != "" {
		t.Fatalf("exit %d, stdout %q", code, out)
	}
	if !strings.Contains(errOut, events+`: no outcome for scheduled request "r06"`) {
		t.Fatalf("stderr %q", errOut)
	}
}

func TestScoreCommandQualityFlip(t *testing.T) {
	events := scoreCLIEdited(t, func(s string) string {
		return strings.Replace(s, `"status": "success", "quality_pass": false`, `"status": "success", "quality_pass": true`, 1)
	})
	code, out, _ := scoreCLI(scoreCLITrace, events)
	if r := scoreCLIReport(t, out); code != 0 || r.Qualified != 4 {
		t.Fatalf("exit %d qualified %d", code, r.Qualified)
	}
}

func TestScoreCommandLateSendExitsTwoWithTheReport(t *testing.T) {
	events := scoreCLIEdited(t, func(s string) string { return strings.Replace(s, `"sent_ms": 765`, `"sent_ms": 800`, 1) })
	code, out, errOut := scoreCLI(scoreCLITrace, events)
	if code != 2 {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	r := scoreCLIReport(t, out)
	if r.Valid || *r.MaxScheduleLagMS != 40 || *r.Requests[3].TTFTMS != 250 {
		t.Fatalf("report %s", r.GomegaString())
	}
	if !strings.Contains(errOut, "load not delivered") || !strings.Contains(errOut, "max schedule lag 40 ms") {
		t.Fatalf("stderr %q", errOut)
	}
}

func TestScoreCommandMalformedLineNamesFileLineField(t *testing.T) {
	events := scoreCLIEdited(t, func(s string) string {
		return strings.Replace(s, `"sent_ms": 702,`, `"sent_ms": 702, "sent_ms": 703,`, 1)
	})
	code, out, errOut := scoreCLI(scoreCLITrace, events)
	if code != 1 || out != "" {
		t.Fatalf("exit %d stdout %q", code, out)
	}
	if !strings.Contains(errOut, events+`:3:31: field "sent_ms": duplicate key`) {
		t.Fatalf("stderr %q", errOut)
	}
}

func TestScoreCommandFlags(t *testing.T) {
	// Flags may follow the positional arguments.
	code, out, _ := scoreCLI(scoreCLITrace, scoreCLIEvents, "--percentile", "linear", "--confidence", "0.9")
	r := scoreCLIReport(t, out)
	if code != 0 || r.PercentileMethod != "linear" || r.WilsonConfidence != 0.9 {
		t.Fatalf("exit %d method %q confidence %v", code, r.PercentileMethod, r.WilsonConfidence)
	}
	// A TTFT objective of 200 ms leaves only r05 (199 ms) within it, and
	// r05 fails quality: nothing qualifies.
	code, out, _ = scoreCLI("--ttft-slo", "200ms", scoreCLITrace, scoreCLIEvents)
	if r := scoreCLIReport(t, out); code != 0 || r.Qualified != 0 {
		t.Fatalf("exit %d qualified %d", code, r.Qualified)
	}
	// A tolerance of 3 ms makes r04 (lag 5) late.
	code, out, _ = scoreCLI("--schedule-lag-tolerance", "3ms", scoreCLITrace, scoreCLIEvents)
	if r := scoreCLIReport(t, out); code != 2 || r.LateCount != 1 {
		t.Fatalf("exit %d late %d", code, r.LateCount)
	}
	code, out, _ = scoreCLI("--fluidity-first-token", "300ms", "--fluidity-cadence", "80ms", scoreCLITrace, scoreCLIEvents)
	if r := scoreCLIReport(t, out); code != 0 || r.Fluidity == nil {
		t.Fatalf("exit %d fluidity %+v", code, r.Fluidity)
	}
	code, out, _ = scoreCLI("--format", "text", scoreCLITrace, scoreCLIEvents)
	if code != 0 || !strings.Contains(out, "SLO attainment:                      50.0% (3 / 6; performance+quality)") {
		t.Fatalf("exit %d text %q", code, out)
	}
	// Without --format, score prints the text summary, not JSON.
	var plain, plainErr bytes.Buffer
	if code := dispatch([]string{"score", scoreCLITrace, scoreCLIEvents}, &plain, &plainErr); code != 0 ||
		!strings.HasPrefix(plain.String(), "====") || strings.Contains(plain.String(), `"offered"`) {
		t.Fatalf("default format: exit %d stdout %q", code, plain.String())
	}
	for _, bad := range [][]string{
		{scoreCLITrace},
		{scoreCLITrace, scoreCLIEvents, "extra"},
		{"--format", "yaml", scoreCLITrace, scoreCLIEvents},
		{"--confidence", "1.5", scoreCLITrace, scoreCLIEvents},
		{"--percentile", "median", scoreCLITrace, scoreCLIEvents},
		{"--fluidity-cadence", "80ms", scoreCLITrace, scoreCLIEvents},
		{"--run", "dir", scoreCLITrace, scoreCLIEvents},
		{"--no-such-flag", scoreCLITrace, scoreCLIEvents},
		{scoreCLITrace, "does-not-exist.jsonl"},
	} {
		if code, out, errOut := scoreCLI(bad...); code != 1 || out != "" || errOut == "" {
			t.Fatalf("%q: exit %d stdout %q stderr %q", bad, code, out, errOut)
		}
	}
}

// scoreCLIRunDir writes a run directory the way the runner does.
func scoreCLIRunDir(t *testing.T, outcomes []record.Outcome) string {
	t.Helper()
	dir := t.TempDir()
	s := schedule.Schedule{Schema: schedule.Schema, Mode: schedule.ModeOpen, WindowMS: [2]float64{0, 1000},
		ScheduleLagToleranceMS: 20, Entries: []schedule.Entry{
			{ID: "a", ScheduledMS: 0}, {ID: "b", Row: 1, ScheduledMS: 500}}}
	data, _ := json.Marshal(s)
	if err := os.WriteFile(filepath.Join(dir, record.ScheduleFile), data, 0o644); err != nil {
		t.Fatal(err)
	}
	var lines []byte
	for _, o := range outcomes {
		b, _ := json.Marshal(o)
		lines = append(append(lines, b...), '\n')
	}
	if err := os.WriteFile(filepath.Join(dir, record.OutcomesFile), lines, 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestScoreCommandRunDirectory(t *testing.T) {
	f := func(v float64) *float64 { return &v }
	two := 2
	a := record.Outcome{ID: "a", Attempt: 1, Status: record.StatusSuccess, ScheduledMS: 0, SentMS: f(1),
		ContentMS: []float64{150, 180}, TerminalMS: 190, OutputTokens: &two}
	b := record.Outcome{ID: "b", Attempt: 1, Status: record.StatusSuccess, ScheduledMS: 500, SentMS: f(502),
		ContentMS: []float64{600, 650}, TerminalMS: 700, OutputTokens: &two}
	dir := scoreCLIRunDir(t, []record.Outcome{a, b})
	before, _ := os.ReadDir(dir)
	// TTFT a = 149, b = 98: a bound of 120 ms fails a.
	code, out, errOut := scoreCLI("--run", dir, "--ttft-slo", "120ms")
	if code != 0 {
		t.Fatalf("exit %d stderr %q", code, errOut)
	}
	r := scoreCLIReport(t, out)
	if r.Offered != 2 || r.Qualified != 1 || r.Inputs.OutcomesSHA256 == "" {
		t.Fatalf("report %s", r.GomegaString())
	}
	after, _ := os.ReadDir(dir)
	if len(after) != len(before) {
		t.Fatal("re-scoring wrote into the run directory")
	}
	// An interrupted run (b has no record) is still scored: exit 2.
	dir = scoreCLIRunDir(t, []record.Outcome{a})
	code, out, errOut = scoreCLI("--run", dir)
	if r := scoreCLIReport(t, out); code != 2 || r.StatusCounts[record.StatusNotSent] != 1 {
		t.Fatalf("exit %d stderr %q", code, errOut)
	}
	// A malformed record names the file, line and field.
	path := filepath.Join(dir, record.OutcomesFile)
	data, _ := os.ReadFile(path)
	if err := os.WriteFile(path, []byte(strings.Replace(string(data), `"terminal_ms":190`, `"terminal_ms":"190"`, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, errOut = scoreCLI("--run", dir)
	if code != 1 || !strings.Contains(errOut, path+`:1:`) || !strings.Contains(errOut, `field "terminal_ms": want a number, got string "190"`) {
		t.Fatalf("exit %d stderr %q", code, errOut)
	}
}
