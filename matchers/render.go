package matchers

import (
	"fmt"
	"math"
	"sort"
	"strings"
	"time"

	"github.com/servebench/servebench/internal/numfmt"
	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/servebench/report"
)

// worstShown is how many of the worst requests a message lists.
const worstShown = 5

// statusCounts renders the terminal statuses that occurred, in the order of
// record.Statuses(): "success 5, timeout 1".
func statusCounts(r *report.Report) string {
	var parts []string
	for _, s := range record.Statuses() {
		if n := r.StatusCounts[s]; n > 0 {
			parts = append(parts, fmt.Sprintf("%s %d", s, n))
		}
	}
	if len(parts) == 0 {
		return "none recorded"
	}
	return strings.Join(parts, ", ")
}

// reasonCounts renders the failed criteria that occurred, in the order of
// report.Reasons(): "status 2, ttft 1"; empty when none did.
func reasonCounts(r *report.Report) string {
	var parts []string
	for _, k := range report.Reasons() {
		if n := r.ReasonCounts[k]; n > 0 {
			parts = append(parts, fmt.Sprintf("%s %d", k, n))
		}
	}
	return strings.Join(parts, ", ")
}

// accountingLines renders the counts that explain an attainment verdict:
// the failed criteria (when any request was unqualified) and the terminal
// statuses.
func accountingLines(r *report.Report) string {
	var b strings.Builder
	if rc := reasonCounts(r); rc != "" {
		fmt.Fprintf(&b, "\nunqualified requests by failed criterion (a request can fail several): %s", rc)
	}
	fmt.Fprintf(&b, "\nterminal statuses: %s", statusCounts(r))
	if slo := sloLine(r.SLO); slo != "" {
		fmt.Fprintf(&b, "\nSLO: %s", slo)
	}
	return b.String()
}

// sloLine renders the declared latency bounds: "TTFT <= 300 ms (from sent),
// TPOT <= 80 ms"; empty when none is declared.
func sloLine(s report.SLO) string {
	var parts []string
	if s.TTFT > 0 {
		from := "sent"
		if s.TTFTFromScheduled {
			from = "scheduled"
		}
		parts = append(parts, fmt.Sprintf("TTFT <= %s (from %s)", numfmt.DurationMS(s.TTFT), from))
	}
	if s.TPOT > 0 {
		parts = append(parts, "TPOT <= "+numfmt.DurationMS(s.TPOT))
	}
	if s.E2E > 0 {
		parts = append(parts, "E2E <= "+numfmt.DurationMS(s.E2E))
	}
	return strings.Join(parts, ", ")
}

// requestLine renders one request's identity, status, times in ms, failed
// criteria and error, leaving out what is undefined.
func requestLine(rs report.RequestScore) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s: scheduled %s", rs.ID, rs.Status, numfmt.MS(rs.ScheduledMS))
	if rs.SentMS == nil {
		b.WriteString(", never sent")
	} else {
		fmt.Fprintf(&b, ", sent %s", numfmt.MS(*rs.SentMS))
		if rs.ScheduleLagMS != nil {
			fmt.Fprintf(&b, " (lag %s)", numfmt.MS(*rs.ScheduleLagMS))
		}
	}
	if rs.TTFTMS != nil {
		fmt.Fprintf(&b, ", TTFT %s", numfmt.MS(*rs.TTFTMS))
	}
	if rs.TPOTMS != nil {
		fmt.Fprintf(&b, ", TPOT %s", numfmt.MS(*rs.TPOTMS))
	}
	if rs.E2EMS != nil {
		fmt.Fprintf(&b, ", E2E %s", numfmt.MS(*rs.E2EMS))
	}
	if len(rs.Reasons) > 0 {
		names := make([]string, len(rs.Reasons))
		for i, k := range rs.Reasons {
			names[i] = string(k)
		}
		fmt.Fprintf(&b, "; failed %s", strings.Join(names, ", "))
	}
	if rs.QualityEvidence != "" {
		fmt.Fprintf(&b, "; quality %q", clip(rs.QualityEvidence, 120))
	}
	if rs.Error != "" {
		fmt.Fprintf(&b, "; error %q", clip(rs.Error, 120))
	}
	return b.String()
}

// clip shortens s to at most n runes, marking the cut.
func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n]) + "..."
}

// requestList renders up to worstShown requests under a title, noting how
// many more there were; empty when there are none.
func requestList(title string, reqs []report.RequestScore) string {
	lines := make([]string, len(reqs))
	for i, rs := range reqs {
		lines[i] = requestLine(rs)
	}
	return lineList(title, lines)
}

// lineList renders up to worstShown lines under a title, noting how many
// more there were; empty when there are none.
func lineList(title string, lines []string) string {
	if len(lines) == 0 {
		return ""
	}
	var b strings.Builder
	fmt.Fprintf(&b, "\n%s:", title)
	for i, l := range lines {
		if i == worstShown {
			fmt.Fprintf(&b, "\n    ... and %d more", len(lines)-worstShown)
			break
		}
		b.WriteString("\n    " + l)
	}
	return b.String()
}

// worstUnqualified orders the unqualified requests from worst to least bad:
// those that did not succeed first, then quality failures, then latency
// failures by how far the worst declared bound was overshot (value / bound),
// ties kept in schedule order.
func worstUnqualified(r *report.Report) []report.RequestScore {
	type ranked struct {
		rs   report.RequestScore
		tier int
		over float64
	}
	var list []ranked
	for _, rs := range requestEntries(r) {
		if rs.Qualified {
			continue
		}
		switch {
		case rs.Status != record.StatusSuccess:
			list = append(list, ranked{rs: rs, tier: 0})
		case hasReason(rs, report.ReasonQuality):
			list = append(list, ranked{rs: rs, tier: 1})
		default:
			list = append(list, ranked{rs: rs, tier: 2, over: overshoot(rs, r.SLO)})
		}
	}
	sort.SliceStable(list, func(i, j int) bool {
		if list[i].tier != list[j].tier {
			return list[i].tier < list[j].tier
		}
		return list[i].over > list[j].over
	})
	out := make([]report.RequestScore, len(list))
	for i, x := range list {
		out[i] = x.rs
	}
	return out
}

// hasReason reports whether the request failed criterion k.
func hasReason(rs report.RequestScore, k report.Reason) bool {
	for _, x := range rs.Reasons {
		if x == k {
			return true
		}
	}
	return false
}

// overshoot is the largest ratio of a failed latency criterion's value to
// its declared bound; 0 when none can be computed.
func overshoot(rs report.RequestScore, slo report.SLO) float64 {
	worst := 0.0
	check := func(k report.Reason, v *float64, bound time.Duration) {
		if v == nil || bound <= 0 || !hasReason(rs, k) {
			return
		}
		if o := *v / (float64(bound) / float64(time.Millisecond)); o > worst {
			worst = o
		}
	}
	ttft := rs.TTFTMS
	if slo.TTFTFromScheduled {
		ttft = rs.TTFTFromScheduledMS
	}
	check(report.ReasonTTFT, ttft, slo.TTFT)
	check(report.ReasonTPOT, rs.TPOTMS, slo.TPOT)
	check(report.ReasonE2E, rs.E2EMS, slo.E2E)
	return worst
}

// failedRequests lists the requests that did not end in success, in
// schedule order.
func failedRequests(r *report.Report) []report.RequestScore {
	var out []report.RequestScore
	for _, rs := range requestEntries(r) {
		if rs.Status != record.StatusSuccess {
			out = append(out, rs)
		}
	}
	return out
}

// fractionError checks that f is a fraction in [0, 1].
func fractionError(who, what string, f float64) error {
	if math.IsNaN(f) || f < 0 || f > 1 {
		return fmt.Errorf("%s needs %s in [0, 1], got %v", who, what, f)
	}
	return nil
}
