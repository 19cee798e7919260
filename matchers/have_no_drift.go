package matchers

import (
	"fmt"
	"math"
	"strings"

	"github.com/servebench/servebench/servebench/report"

	"github.com/onsi/gomega/types"
)

// HaveNoDrift succeeds when neither p99 TTFT nor p99 TPOT trended upward
// over the run by more than maxGrowth, a fraction of its fitted start
// value: the report's drift analysis (report.DriftReport) fits Sen's
// slope to the per-interval p99 and gives its confidence interval, and a
// trend counts as drift when that interval lies wholly above zero and the
// estimated growth exceeds maxGrowth.
//
//	Expect(report).To(matchers.HaveNoDrift(0.2)) // p99 may not grow 20% over the run
//
// A negative or non-finite maxGrowth, and a report whose drift was not
// judged (a run of fewer than six intervals with successes, or scored with
// drift left out), are errors: a short run is no evidence of stability.
func HaveNoDrift(maxGrowth float64) types.GomegaMatcher {
	return driftMatcher{maxGrowth: maxGrowth}
}

// driftMatcher holds only its expectation; see HaveNoDrift.
type driftMatcher struct{ maxGrowth float64 }

// driftVerdict is the matcher's judgment of one report.
type driftVerdict struct {
	drift    *report.DriftReport
	drifting []report.DriftTrend
}

// evaluate judges actual; it keeps nothing, so every method may call it.
func (m driftMatcher) evaluate(actual any) (driftVerdict, error) {
	const who = "HaveNoDrift"
	if math.IsNaN(m.maxGrowth) || math.IsInf(m.maxGrowth, 0) || m.maxGrowth < 0 {
		return driftVerdict{}, fmt.Errorf("%s needs a finite growth limit of at least 0, got %v", who, m.maxGrowth)
	}
	r, err := reportFrom(who, actual)
	if err != nil {
		return driftVerdict{}, err
	}
	if r.Drift == nil {
		return driftVerdict{}, fmt.Errorf("%s: the report has no drift analysis (scored with drift left out)", who)
	}
	if !r.Drift.Judged {
		return driftVerdict{}, fmt.Errorf("%s: drift was %s", who, r.Drift.Note)
	}
	v := driftVerdict{drift: r.Drift}
	for _, t := range r.Drift.Trends {
		if t.Drifting(m.maxGrowth) {
			v.drifting = append(v.drifting, t)
		}
	}
	return v, nil
}

// Match reports whether no trend exceeds the limit.
func (m driftMatcher) Match(actual any) (bool, error) {
	v, err := m.evaluate(actual)
	return len(v.drifting) == 0, err
}

// FailureMessage lists the drifting metrics with their findings.
func (m driftMatcher) FailureMessage(actual any) string {
	v, err := m.evaluate(actual)
	if err != nil {
		return err.Error()
	}
	return fmt.Sprintf("Expected no p99 to grow more than %.1f%% over the run, but:\n%s", 100*m.maxGrowth, m.findings(v.drifting)) +
		m.series(v.drift)
}

// NegatedFailureMessage says that no trend exceeded the limit.
func (m driftMatcher) NegatedFailureMessage(actual any) string {
	v, err := m.evaluate(actual)
	if err != nil {
		return err.Error()
	}
	return fmt.Sprintf("Expected a p99 to grow more than %.1f%% over the run, but none did:\n%s", 100*m.maxGrowth, m.findings(v.drift.Trends))
}

func (m driftMatcher) findings(ts []report.DriftTrend) string {
	var b strings.Builder
	for _, t := range ts {
		fmt.Fprintf(&b, "  - %s\n", t.Finding)
	}
	return b.String()
}

// series shows the per-interval p99 TTFT, at most 24 intervals.
func (m driftMatcher) series(d *report.DriftReport) string {
	var b strings.Builder
	fmt.Fprintf(&b, "p99 TTFT per %s ms interval:", formatMS(d.IntervalMS))
	for i, iv := range d.Intervals {
		if i == 24 {
			fmt.Fprintf(&b, " … (%d more)", len(d.Intervals)-24)
			break
		}
		if iv.TTFTP99MS == nil {
			b.WriteString(" -")
			continue
		}
		fmt.Fprintf(&b, " %s", formatMS(*iv.TTFTP99MS))
	}
	return b.String()
}

// String names the objective, for MeetSLOs and spec reports.
func (m driftMatcher) String() string {
	return fmt.Sprintf("no p99 drift above %.1f%%", 100*m.maxGrowth)
}

func formatMS(v float64) string { return fmt.Sprintf("%g", math.Round(v*1000)/1000) }
