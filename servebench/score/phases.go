package score

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/servebench/servebench/internal/numfmt"
	"github.com/servebench/servebench/internal/oneline"
	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/servebench/report"
	"github.com/servebench/servebench/servebench/schedule"
	"github.com/servebench/servebench/servebench/stats"
)

// phaseTally judges each phase of a phased arrival plan and measures the
// recovery after the first burst phase. It keeps per phase its counts and
// the TTFTs of its successes, and for the recovery one (scheduled, TTFT)
// pair per request scheduled after the burst: memory grows with the
// requests, 16 bytes each at most.
type phaseTally struct {
	phases        []schedule.Phase
	bounds        [][2]float64
	per           []phaseCounts
	burst         int // index of the first burst phase; -1 for none
	after         []timedTTFT
	fromScheduled bool
}

// phaseCounts is one phase's running figures.
type phaseCounts struct {
	offered, completed, qualified int
	ttft                          []float64
	// capability is the first capability refusal's message; refusedAll
	// stays true while every failure so far was one.
	capability string
	refusedAll bool
}

// timedTTFT is a request after the burst: when it was scheduled and its
// TTFT (+Inf when it did not succeed: it never met any bound).
type timedTTFT struct{ scheduled, ttft float64 }

func newPhaseTally(phases []schedule.Phase, fromScheduled bool) *phaseTally {
	if len(phases) == 0 {
		return nil
	}
	t := &phaseTally{phases: phases, bounds: schedule.PhaseBounds(phases), per: make([]phaseCounts, len(phases)),
		burst: -1, fromScheduled: fromScheduled}
	for i := range t.per {
		t.per[i].refusedAll = true
	}
	for i, p := range phases {
		if p.Name == report.RecoveryBurstPhase {
			t.burst = i
			break
		}
	}
	return t
}

// add counts one request's entry into its phase.
func (t *phaseTally) add(rs *report.RequestScore) {
	if t == nil {
		return
	}
	i := t.phaseOf(rs.ScheduledMS)
	ttft := math.Inf(1)
	success := rs.Status == record.StatusSuccess
	if v := t.ttftOf(rs); success && v != nil {
		ttft = *v
	}
	if i >= 0 {
		pc := &t.per[i]
		pc.offered++
		switch {
		case success:
			pc.completed++
			pc.refusedAll = false
			if !math.IsInf(ttft, 1) {
				pc.ttft = append(pc.ttft, ttft)
			}
		case pc.refusedAll:
			if why := capabilityRefusal(rs.Error); why == "" {
				pc.refusedAll = false
			} else if pc.capability == "" {
				pc.capability = why
			}
		}
		if rs.Qualified {
			pc.qualified++
		}
	}
	if t.burst >= 0 && rs.ScheduledMS >= t.bounds[t.burst][1] {
		t.after = append(t.after, timedTTFT{rs.ScheduledMS, ttft})
	}
}

// ttftOf is the request's TTFT as the SLO judges it.
func (t *phaseTally) ttftOf(rs *report.RequestScore) *float64 {
	if t.fromScheduled {
		return rs.TTFTFromScheduledMS
	}
	return rs.TTFTMS
}

// phaseOf is the index of the phase whose [start, end) holds ms; -1 when
// none does.
func (t *phaseTally) phaseOf(ms float64) int {
	for i, b := range t.bounds {
		if ms >= b[0] && ms < b[1] {
			return i
		}
	}
	return -1
}

// capabilityRefusals are the phrases of an engine's answer that says it
// cannot serve a request at all (vLLM, SGLang and the simulated engine
// word them so), rather than that it failed to.
var capabilityRefusals = []string{"maximum context length", "context length", "context window",
	"exceeds the maximum", "tool-call-parser", "tool call parser", "enable-auto-tool-choice", "tool choice"}

// capabilityRefusal returns the message when msg is an engine's refusal
// for a capability it lacks; "" otherwise.
func capabilityRefusal(msg string) string {
	lower := strings.ToLower(msg)
	for _, p := range capabilityRefusals {
		if strings.Contains(lower, p) {
			return oneline.Shorten(msg)
		}
	}
	return ""
}

// report gives the phases' results, then the recovery. slo is the TTFT
// bound in ms (0: none).
func (t *phaseTally) report(method stats.PercentileMethod, slo float64) ([]report.PhaseResult, *report.Recovery, *float64) {
	if t == nil {
		return nil, nil, nil
	}
	out := make([]report.PhaseResult, len(t.phases))
	for i, p := range t.phases {
		pc := &t.per[i]
		slices.Sort(pc.ttft)
		pr := report.PhaseResult{Name: p.Name, StartMS: t.bounds[i][0], EndMS: t.bounds[i][1], RateRPS: p.RateRPS,
			Offered: pc.offered, Completed: pc.completed, Qualified: pc.qualified}
		if pc.offered > 0 {
			pr.Attainment = new(float64(pc.qualified) / float64(pc.offered))
		}
		if v, ok := stats.Percentile(pc.ttft, 99, method); ok {
			pr.TTFTP99MS = &v
		}
		pr.Verdict, pr.Reason = pc.verdict(pr.TTFTP99MS, slo)
		out[i] = pr
	}
	rec, ms := t.recovery(out, slo)
	return out, rec, ms
}

// verdict judges a phase: skipped when every request was refused for a
// capability, fail when one did not complete or the p99 TTFT is over the
// SLO, pass otherwise.
func (pc *phaseCounts) verdict(p99 *float64, slo float64) (string, string) {
	switch {
	case pc.offered == 0:
		return report.PhaseFail, "no request was scheduled in the phase"
	case pc.completed == 0 && pc.refusedAll && pc.capability != "":
		return report.PhaseSkipped, fmt.Sprintf("the engine cannot run this phase: all %d requests were refused: %s", pc.offered, pc.capability)
	case pc.completed < pc.offered:
		return report.PhaseFail, fmt.Sprintf("%d of %d requests did not complete", pc.offered-pc.completed, pc.offered)
	case slo > 0 && p99 != nil && *p99 > slo:
		return report.PhaseFail, fmt.Sprintf("p99 TTFT %s ms is over the TTFT SLO's %s ms", numfmt.Compact(*p99), numfmt.Compact(slo))
	}
	return report.PhasePass, ""
}

// recovery measures the time from the burst's end to the start of the
// first window of RecoveryWindowRequests requests after it (consecutive in
// arrival order) whose nearest-rank p99 TTFT is within the bound: the TTFT
// SLO, else 1.1 × the steady phase's p99.
func (t *phaseTally) recovery(phases []report.PhaseResult, slo float64) (*report.Recovery, *float64) {
	if t.burst < 0 {
		return nil, nil
	}
	rec := &report.Recovery{BurstEndMS: t.bounds[t.burst][1], WindowRequests: report.RecoveryWindowRequests}
	switch steady := slices.IndexFunc(phases, func(p report.PhaseResult) bool { return p.Name == report.RecoverySteadyPhase }); {
	case slo > 0:
		rec.BoundMS, rec.Bound = new(slo), "ttft_slo"
	case steady >= 0 && phases[steady].TTFTP99MS != nil:
		rec.BoundMS, rec.Bound = new(1.1**phases[steady].TTFTP99MS), "1.1 × steady p99"
	default:
		rec.Reason = "no TTFT SLO, and no phase named steady with a p99 TTFT: nothing bounds the recovery"
		return rec, nil
	}
	slices.SortFunc(t.after, func(a, b timedTTFT) int { return cmp.Compare(a.scheduled, b.scheduled) })
	n := report.RecoveryWindowRequests
	window := make([]float64, n)
	for start := 0; start+n <= len(t.after); start += n {
		rec.Windows++
		for j := range window {
			window[j] = t.after[start+j].ttft
		}
		slices.Sort(window)
		if p99, _ := stats.Percentile(window, 99, stats.NearestRank); p99 <= *rec.BoundMS {
			rec.Recovered = true
			return rec, new(t.after[start].scheduled - rec.BurstEndMS)
		}
	}
	rec.Reason = fmt.Sprintf("no window of %d requests after the burst had a p99 TTFT within %s ms (%d windows of %d requests after it)",
		n, numfmt.Compact(*rec.BoundMS), rec.Windows, len(t.after))
	return rec, nil
}
