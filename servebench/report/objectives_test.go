package report

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/servebench/servebench/servebench/record"
)

// A report written as the runner writes it (indented JSON, with request
// entries and characters that encoding/json escapes) and then given its
// objectives is byte for byte the report encoded with them; writing
// again replaces the list, and writing none removes it.
func TestWriteObjectivesKeepsTheReportAndReplacesTheList(t *testing.T) {
	att, ttft := 0.9, 12.5
	rep := &Report{Schema: ReportSchema, Offered: 10, Qualified: 9, Attainment: &att, Valid: true,
		InvalidReasons: []string{"a <b> & c"},
		Percentiles:    map[record.Metric]Distribution{record.MetricTTFT: {Population: "successful requests", N: 10, P50: &ttft}},
		Requests:       []RequestScore{{ID: "r1", Status: record.StatusSuccess, Qualified: true}}}
	path := filepath.Join(t.TempDir(), record.ReportFile)
	write := func(r *Report) []byte {
		b, err := json.MarshalIndent(r, "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		return append(b, '\n')
	}
	if err := os.WriteFile(path, write(rep), 0o644); err != nil {
		t.Fatal(err)
	}
	vs := []ObjectiveVerdict{
		{Name: "attainment >= 0.950", Source: "objectives.attainment", Measured: &att, Bound: new(0.95), Unit: "fraction", Verdict: ObjectiveFail,
			Reason: "Expected attainment 0.900 (9 of 10) to be at least 0.950"},
		{Name: "p99 TTFT <= 500 ms", Source: "objectives.percentiles[0]", Bound: new(500.0), Unit: "ms", Verdict: ObjectiveUnjudged,
			Reason: "p99 TTFT needs at least 500 observations for 5 to lie beyond it, and its population has 10 (successful requests)"},
	}
	if err := WriteObjectives(path, vs); err != nil {
		t.Fatal(err)
	}
	withObjectives := *rep
	withObjectives.Objectives = vs
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if want := write(&withObjectives); string(got) != string(want) {
		t.Fatalf("report.json:\n%s\nwant\n%s", got, want)
	}
	back, err := ReadFile(path)
	if err != nil || len(back.Objectives) != 2 || back.Objectives[1].Verdict != ObjectiveUnjudged || back.Objectives[1].Measured != nil {
		t.Fatalf("read back: %v %+v", err, back)
	}

	if err := WriteObjectives(path, vs[1:]); err != nil {
		t.Fatal(err)
	}
	withObjectives.Objectives = vs[1:]
	if got, _ := os.ReadFile(path); string(got) != string(write(&withObjectives)) {
		t.Fatalf("written again:\n%s", got)
	}
	if err := WriteObjectives(path, nil); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(path); string(got) != string(write(rep)) {
		t.Fatalf("with no objectives:\n%s", got)
	}
}

func TestWriteObjectivesRefusesWhatIsNoReport(t *testing.T) {
	dir := t.TempDir()
	if err := WriteObjectives(filepath.Join(dir, "missing.json"), nil); !os.IsNotExist(err) {
		t.Errorf("a missing file: %v", err)
	}
	path := filepath.Join(dir, record.ReportFile)
	_ = os.WriteFile(path, []byte("[1, 2]\n"), 0o644)
	if err := WriteObjectives(path, nil); err == nil || err.Error() != path+": not a report: want a JSON object" {
		t.Errorf("a list: %v", err)
	}
}
