package servebench

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/servebench/servebench/internal/numfmt"
	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/servebench/report"
)

// ColorableString renders the run in one line, for a Ginkgo report entry
// (AddReportEntry("run", result)): attainment with its counts and Wilson
// bound, the status counts, p99 TTFT and E2E with their populations' sizes,
// validity, and the run directory.
func (r *RunResult) ColorableString() string {
	rep := r.Report
	if rep == nil {
		return "no report; run directory " + r.Dir
	}
	var b strings.Builder
	if rep.Attainment != nil {
		fmt.Fprintf(&b, "attainment %.3f (%d of %d offered qualified)", *rep.Attainment, rep.Qualified, rep.Offered)
	} else {
		fmt.Fprintf(&b, "attainment undefined (%d offered)", rep.Offered)
	}
	if rep.WilsonLower != nil {
		fmt.Fprintf(&b, ", Wilson lower %.3f at %s", *rep.WilsonLower, numfmt.Level(rep.WilsonConfidence))
	}
	var statuses []string
	for _, s := range record.Statuses() {
		if n := rep.StatusCounts[s]; n > 0 {
			statuses = append(statuses, fmt.Sprintf("%s %d", s, n))
		}
	}
	fmt.Fprintf(&b, "; %s", strings.Join(statuses, ", "))
	for _, m := range []record.Metric{record.MetricTTFT, record.MetricE2E} {
		if d, ok := rep.Percentiles[m]; ok && d.P99 != nil {
			fmt.Fprintf(&b, "; p99 %s %.1f ms (n=%d)", strings.TrimSuffix(string(m), "_ms"), *d.P99, d.N)
		}
	}
	if rep.Valid {
		b.WriteString("; {{green}}load delivered{{/}}")
	} else {
		fmt.Fprintf(&b, "; {{red}}load not delivered: %s{{/}}", strings.Join(rep.InvalidReasons, "; "))
	}
	fmt.Fprintf(&b, "; run directory %s", r.Dir)
	return b.String()
}

// MarshalJSON encodes the run as a report entry carries it: the run
// directory, the schedule's hash and the scored report. The schedule and
// the outcome records stay in the run directory, so the entry does not
// grow with the run.
func (r *RunResult) MarshalJSON() ([]byte, error) {
	return json.Marshal(struct {
		Dir            string         `json:"dir"`
		ScheduleSHA256 string         `json:"schedule_sha256,omitempty"`
		Report         *report.Report `json:"report"`
	}{r.Dir, r.ScheduleSHA256, r.Report})
}
