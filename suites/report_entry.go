package suites

import (
	"fmt"

	"github.com/servebench/servebench/servebench"
	"github.com/servebench/servebench/servebench/report"
)

// ReportEntryName names the report entry every load point attaches.
const ReportEntryName = "servebench run"

// RunEntry is the report entry attached to a load point's first spec: the
// contract, the load, the kept run directory and the scored report. It is
// added by pointer, so Ginkgo's JSON report carries the whole report and the
// console shows ColorableString.
type RunEntry struct {
	Contract  string         `json:"contract"`
	LoadPoint string         `json:"load_point"`
	Dir       string         `json:"dir"`
	Report    *report.Report `json:"report"`
}

// ColorableString renders the run in one line: the contract and the load
// point, then servebench.RunResult's line (attainment with its counts and
// Wilson bound, the status counts, p99 TTFT and E2E, validity, and the run
// directory).
func (e *RunEntry) ColorableString() string {
	run := &servebench.RunResult{Dir: e.Dir, Report: e.Report}
	return fmt.Sprintf("{{bold}}%s, %s{{/}}: %s", e.Contract, e.LoadPoint, run.ColorableString())
}
