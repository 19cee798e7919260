package report

import (
	"fmt"
	"strings"

	"github.com/servebench/servebench/internal/numfmt"
	"github.com/servebench/servebench/servebench/record"
)

// GomegaString renders the report in one paragraph for Gomega failure
// messages: the denominators, attainment and its Wilson bound, the status
// counts, p50/p99 of TTFT, TPOT and E2E, and validity.
func (r *Report) GomegaString() string {
	if r == nil {
		return "Report<nil>"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Report{offered %d (%s req/s), protocol successes %d, qualified %d, attainment %s (%d/%d, %s), wilson lower %s at %s, status",
		r.Offered, numfmt.OptFixed(r.OfferedRPS, 3), r.ProtocolSuccesses, r.Qualified, numfmt.OptFixed(r.Attainment, 3),
		r.Qualified, r.Offered, r.AttainmentKind, numfmt.OptFixed(r.WilsonLower, 3), numfmt.Level(r.WilsonConfidence))
	for _, s := range record.Statuses() {
		if c := r.StatusCounts[s]; c > 0 {
			fmt.Fprintf(&b, " %s=%d", s, c)
		}
	}
	for _, m := range []record.Metric{record.MetricTTFT, record.MetricTPOT, record.MetricE2E} {
		d := r.Percentiles[m]
		fmt.Fprintf(&b, ", %s p50/p99 %s/%s ms (n=%d)", strings.TrimSuffix(string(m), "_ms"), numfmt.OptCompact(d.P50), numfmt.OptCompact(d.P99), d.N)
	}
	fmt.Fprintf(&b, ", max schedule lag %s ms, valid %v", numfmt.OptCompact(r.MaxScheduleLagMS), r.Valid)
	if !r.Valid {
		fmt.Fprintf(&b, " (%s)", strings.Join(r.InvalidReasons, "; "))
	}
	b.WriteString("}")
	return b.String()
}
