package report_test

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/servebench/report"
)

// A run's report.json given the verdicts of its objectives: a p99 over 40
// requests has none beyond it (500 are needed for 5), so it is unjudged.
func ExampleWriteObjectives() {
	dir, _ := os.MkdirTemp("", "run")
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, record.ReportFile)
	_ = os.WriteFile(path, []byte(`{"schema": "servebench.report/v1", "offered": 40}`+"\n"), 0o644)
	fmt.Println(report.Judgeable(40, 99), report.ObservationsNeeded(99))
	err := report.WriteObjectives(path, []report.ObjectiveVerdict{{
		Name: "ttft_p99<=500ms", Source: "threshold", Bound: new(500.0), Unit: "ms", Verdict: report.ObjectiveUnjudged,
		Reason: fmt.Sprintf("p99 needs at least %d observations for %d to lie beyond it", report.ObservationsNeeded(99), report.MinObservationsBeyond),
	}})
	if err != nil {
		fmt.Println(err)
		return
	}
	rep, _ := report.ReadFile(path)
	o := rep.Objectives[0]
	fmt.Println(rep.Offered, o.Name, o.Verdict, o.Measured == nil, *o.Bound, o.Unit)
	fmt.Println(o.Reason)
	// Output:
	// false 500
	// 40 ttft_p99<=500ms unjudged true 500 ms
	// p99 needs at least 500 observations for 5 to lie beyond it
}
