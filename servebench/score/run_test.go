package score

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/servebench/report"
	"github.com/servebench/servebench/servebench/schedule"
	"github.com/servebench/servebench/servebench/stats"
)

// writeRunDir writes a run directory the way the runner does: the schedule
// as JSON and one JSON outcome per line.
func writeRunDir(t *testing.T, s *schedule.Schedule, outcomes []record.Outcome, report *report.Report) string {
	t.Helper()
	dir := t.TempDir()
	data, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, record.ScheduleFile), data, 0o644); err != nil {
		t.Fatal(err)
	}
	var lines []byte
	for i := range outcomes {
		b, err := json.Marshal(&outcomes[i])
		if err != nil {
			t.Fatal(err)
		}
		lines = append(append(lines, b...), '\n')
	}
	if err := os.WriteFile(filepath.Join(dir, record.OutcomesFile), lines, 0o644); err != nil {
		t.Fatal(err)
	}
	if report != nil {
		b, err := json.Marshal(report)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, record.ReportFile), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func runDirFixture() (*schedule.Schedule, []record.Outcome) {
	s := testSchedule(map[string]float64{"a": 0, "b": 200, "c": 400}, "a", "b", "c")
	s.WorkloadSHA256 = strings.Repeat("ab", 32)
	a := success("a", 0, 1, []float64{100, 150}, 160, new(2))
	b := success("b", 200, 201, []float64{500, 520}, 530, new(2))
	c := record.Outcome{ID: "c", Attempt: 1, Status: record.StatusTimeout, ScheduledMS: 400, SentMS: new(400.0), TerminalMS: 1400, Timeout: new(record.TimeoutFirstToken)}
	return s, []record.Outcome{a, b, c}
}

func TestScoreRunDirRescoresWithNewSLOs(t *testing.T) {
	s, outcomes := runDirFixture()
	dir := writeRunDir(t, s, outcomes, nil)
	r, err := RunDir(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if r.Offered != 3 || r.Qualified != 2 || r.HorizonMS != 1400 {
		t.Fatalf("offered %d qualified %d horizon %v", r.Offered, r.Qualified, r.HorizonMS)
	}
	// A TTFT bound of 200 ms disqualifies b (299 ms).
	r, err = RunDir(dir, Options{SLO: report.SLO{TTFT: 200 * time.Millisecond}})
	if err != nil {
		t.Fatal(err)
	}
	if r.Qualified != 1 || r.Requests[1].Reasons[0] != report.ReasonTTFT {
		t.Fatalf("qualified %d", r.Qualified)
	}
	schedBytes, _ := os.ReadFile(filepath.Join(dir, record.ScheduleFile))
	outBytes, _ := os.ReadFile(filepath.Join(dir, record.OutcomesFile))
	if r.Inputs.ScheduleSHA256 != scoreSHA256Hex(schedBytes) || r.Inputs.OutcomesSHA256 != scoreSHA256Hex(outBytes) || r.Inputs.WorkloadSHA256 != s.WorkloadSHA256 {
		t.Fatalf("inputs %+v", r.Inputs)
	}
	if _, err := os.Stat(filepath.Join(dir, record.ReportFile)); !os.IsNotExist(err) {
		t.Fatal("re-scoring wrote a report")
	}
}

func TestScoreRunDirReusesTheRecordedSLO(t *testing.T) {
	s, outcomes := runDirFixture()
	prev := &report.Report{SLO: report.SLO{TTFT: 200 * time.Millisecond}, WilsonConfidence: 0.9, PercentileMethod: stats.Linear,
		Experiment: &report.Experiment{RunID: "run-1"}}
	dir := writeRunDir(t, s, outcomes, prev)
	r, err := RunDir(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if r.Qualified != 1 || r.WilsonConfidence != 0.9 || r.PercentileMethod != stats.Linear || r.Experiment == nil || r.Experiment.RunID != "run-1" {
		t.Fatalf("qualified %d confidence %v method %q experiment %+v", r.Qualified, r.WilsonConfidence, r.PercentileMethod, r.Experiment)
	}
}

func TestScoreRunDirInterruptedRunIsScorable(t *testing.T) {
	s, outcomes := runDirFixture()
	dir := writeRunDir(t, s, outcomes[:2], nil) // c never got a record
	r, err := RunDir(dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if r.Valid || r.StatusCounts[record.StatusNotSent] != 1 || !strings.Contains(r.InvalidReasons[0], "no outcome record") {
		t.Fatalf("valid %v counts %v reasons %q", r.Valid, r.StatusCounts, r.InvalidReasons)
	}
}

func TestScoreRunDirStrictErrors(t *testing.T) {
	s, outcomes := runDirFixture()
	cases := []struct {
		name      string
		edit      func(lines []string) []string
		line      int
		field     string
		msg       string
		wantColum bool
	}{
		{"unknown field", func(l []string) []string {
			l[1] = strings.Replace(l[1], `"attempt":1`, `"attempt":1,"bogus":true`, 1)
			return l
		}, 2, "bogus", "unknown field", true},
		{"missing field (a line cut short by a crash)", func(l []string) []string {
			l[2] = strings.Replace(l[2], `,"http_status":null`, ``, 1)
			return l
		}, 3, "http_status", "missing required field", true},
		{"truncated line", func(l []string) []string {
			l[2] = l[2][:40]
			return l
		}, 3, "", "unexpected end of input", true},
		{"duplicate key", func(l []string) []string {
			l[0] = strings.Replace(l[0], `"attempt":1`, `"attempt":1,"attempt":2`, 1)
			return l
		}, 1, "attempt", "duplicate key", true},
		{"clock rule", func(l []string) []string {
			l[1] = strings.Replace(l[1], `"sent_ms":201`, `"sent_ms":510`, 1)
			return l
		}, 2, "content_ms[0]", "before sent 510", true},
		{"unknown id", func(l []string) []string {
			l[1] = strings.Replace(l[1], `"id":"b"`, `"id":"q"`, 1)
			return l
		}, 2, "id", "no request with this ID in the schedule", true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := writeRunDir(t, s, outcomes, nil)
			path := filepath.Join(dir, record.OutcomesFile)
			data, _ := os.ReadFile(path)
			lines := c.edit(strings.Split(strings.TrimSuffix(string(data), "\n"), "\n"))
			if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			_, err := RunDir(dir, Options{})
			var ie *record.InputError
			if !errors.As(err, &ie) {
				t.Fatalf("want a ScoreInputError, got %v", err)
			}
			if ie.File != path || ie.Line != c.line || ie.Field != c.field || !strings.Contains(ie.Msg, c.msg) || (c.wantColum && ie.Column == 0) {
				t.Fatalf("got %s", ie.Error())
			}
		})
	}
}

func TestScoreRunDirScheduleErrors(t *testing.T) {
	s, outcomes := runDirFixture()
	dir := writeRunDir(t, s, outcomes, nil)
	path := filepath.Join(dir, record.ScheduleFile)
	data, _ := os.ReadFile(path)
	if err := os.WriteFile(path, []byte(strings.Replace(string(data), `"mode": "open"`, `"mode": "open", "mode": "closed"`, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := RunDir(dir, Options{})
	var ie *record.InputError
	if !errors.As(err, &ie) || ie.File != path || ie.Field != "mode" || ie.Msg != "duplicate key" || ie.Line == 0 {
		t.Fatalf("got %v", err)
	}
	if _, err := RunDir(t.TempDir(), Options{}); err == nil || !strings.Contains(err.Error(), record.ScheduleFile) {
		t.Fatalf("empty directory: %v", err)
	}
}
