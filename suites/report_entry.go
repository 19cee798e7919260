package suites

import (
	"fmt"
	"strings"

	"github.com/servebench/servebench/internal/numfmt"
	"github.com/servebench/servebench/servebench/record"
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

// ColorableString renders the run in one line: attainment with its counts
// and Wilson bound, the status counts, p99 TTFT and E2E with their
// populations' sizes, validity, and the run directory.
func (e *RunEntry) ColorableString() string {
	r := e.Report
	if r == nil {
		return fmt.Sprintf("{{bold}}%s, %s{{/}}: no report; run directory %s", e.Contract, e.LoadPoint, e.Dir)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "{{bold}}%s, %s{{/}}: ", e.Contract, e.LoadPoint)
	if r.Attainment != nil {
		fmt.Fprintf(&b, "attainment %.3f (%d of %d offered qualified)", *r.Attainment, r.Qualified, r.Offered)
	} else {
		fmt.Fprintf(&b, "attainment undefined (%d offered)", r.Offered)
	}
	if r.WilsonLower != nil {
		fmt.Fprintf(&b, ", Wilson lower %.3f at %s", *r.WilsonLower, numfmt.Level(r.WilsonConfidence))
	}
	var statuses []string
	for _, s := range record.Statuses() {
		if n := r.StatusCounts[s]; n > 0 {
			statuses = append(statuses, fmt.Sprintf("%s %d", s, n))
		}
	}
	fmt.Fprintf(&b, "; %s", strings.Join(statuses, ", "))
	for _, m := range []record.Metric{record.MetricTTFT, record.MetricE2E} {
		if d, ok := r.Percentiles[m]; ok && d.P99 != nil {
			fmt.Fprintf(&b, "; p99 %s %.1f ms (n=%d)", strings.TrimSuffix(string(m), "_ms"), *d.P99, d.N)
		}
	}
	if r.Valid {
		b.WriteString("; {{green}}load delivered{{/}}")
	} else {
		fmt.Fprintf(&b, "; {{red}}load not delivered: %s{{/}}", strings.Join(r.InvalidReasons, "; "))
	}
	fmt.Fprintf(&b, "; run directory %s", e.Dir)
	return b.String()
}
