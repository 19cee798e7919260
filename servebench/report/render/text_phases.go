package render

import (
	"strings"

	"github.com/servebench/servebench/internal/numfmt"
	"github.com/servebench/servebench/servebench/report"
)

// writePhasesText adds a line per phase of a phased plan, the recovery
// after its burst, and the shed-order check, each when the report has it.
func writePhasesText(line func(label, format string, args ...any), r *report.Report) {
	for _, p := range r.Phases {
		verdict := strings.ToUpper(p.Verdict)
		if p.Reason != "" {
			verdict += ": " + p.Reason
		}
		ttft := "n/a"
		if p.TTFTP99MS != nil {
			ttft = numfmt.Compact(*p.TTFTP99MS) + " ms"
		}
		line("Phase "+p.Name, "[%s, %s) ms at %s req/s: %d of %d completed, attainment %s, TTFT p99 %s; %s",
			numfmt.Compact(p.StartMS), numfmt.Compact(p.EndMS), numfmt.Compact(p.RateRPS), p.Completed, p.Offered,
			numfmt.OptPercent(p.Attainment), ttft, verdict)
	}
	if rec := r.Recovery; rec != nil {
		if r.RecoveryMS != nil {
			line("Recovery after the burst", "%s ms (first window of %d requests with p99 TTFT within %s ms, %s)",
				numfmt.Compact(*r.RecoveryMS), rec.WindowRequests, numfmt.OptCompact(rec.BoundMS), rec.Bound)
		} else {
			line("Recovery after the burst", "none: %s", rec.Reason)
		}
	}
	if s := r.ShedOrder; s != nil {
		line("Shed order", "%d violations in %d windows of %s ms (critical %s: %d of %d rejected; sheddable: %d of %d rejected)",
			s.Violations, s.Windows, numfmt.Compact(s.WindowMS), strings.Join(s.Critical, ", "),
			s.CriticalRejected, s.CriticalSent, s.SheddableRejected, s.SheddableSent)
	}
}
