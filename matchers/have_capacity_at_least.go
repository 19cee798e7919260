package matchers

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/servebench/servebench/servebench/capacity"

	"github.com/onsi/gomega/format"
	"github.com/onsi/gomega/types"

	"github.com/servebench/servebench/internal/numfmt"
)

// HaveCapacityAtLeast succeeds when a sweep's SLO capacity, the highest
// tested offered rate that passes the sweep's capacity rule (attainment, or
// its Wilson lower bound, at least α; the load delivered; optionally no
// backlog growth), is at least rps requests per second. The selection is
// recomputed from the sweep's points and rule, so an edited or hand-built
// sweep is judged by its evidence. It is the highest passing tested point,
// not a proven maximum between points.
//
//	sweep := capacity.NewSweep(points, capacity.Rule{MinAttainment: 0.95})
//	Expect(sweep).To(matchers.HaveCapacityAtLeast(8))
//
// The actual is a *capacity.Sweep or a capacity.Sweep. A negative or
// NaN rate and a sweep without points are errors.
func HaveCapacityAtLeast(rps float64) types.GomegaMatcher {
	return capacityMatcher{target: rps}
}

// capacityMatcher holds only its expectation; see HaveCapacityAtLeast.
type capacityMatcher struct{ target float64 }

// capacityVerdict is the matcher's judgment of one sweep.
type capacityVerdict struct {
	sweep capacity.Sweep
	sel   capacity.Selection
	pass  bool
}

// evaluate judges actual; it keeps nothing, so every method may call it.
func (m capacityMatcher) evaluate(actual any) (capacityVerdict, error) {
	const who = "HaveCapacityAtLeast"
	if math.IsNaN(m.target) || math.IsInf(m.target, 0) || m.target < 0 {
		return capacityVerdict{}, fmt.Errorf("%s needs a finite, non-negative rate in requests per second, got %v", who, m.target)
	}
	var s capacity.Sweep
	switch a := actual.(type) {
	case *capacity.Sweep:
		if a == nil {
			return capacityVerdict{}, fmt.Errorf("%s expects a sweep, got a nil one", who)
		}
		s = *a
	case capacity.Sweep:
		s = a
	default:
		return capacityVerdict{}, fmt.Errorf("%s expects a *capacity.Sweep or a capacity.Sweep.  Got:\n%s", who, format.Object(actual, 1))
	}
	if len(s.Points) == 0 {
		return capacityVerdict{}, fmt.Errorf("%s cannot judge a sweep without points: no rate was tested", who)
	}
	if s.AutoUsers != nil || s.Points[0].Users > 0 {
		return capacityVerdict{}, fmt.Errorf("%s judges offered rates, and this sweep searched closed-loop users: use HaveConcurrencyAtLeast", who)
	}
	sel := capacity.Select(s.Points, s.Rule)
	return capacityVerdict{sweep: s, sel: sel, pass: sel.RPS != nil && *sel.RPS >= m.target}, nil
}

// Match reports whether the selected capacity reaches the target.
func (m capacityMatcher) Match(actual any) (bool, error) {
	v, err := m.evaluate(actual)
	return v.pass, err
}

// FailureMessage states the selected capacity and each point's verdict.
func (m capacityMatcher) FailureMessage(actual any) string {
	v, err := m.evaluate(actual)
	if err != nil {
		return err.Error()
	}
	return m.headline(v, "to be at least") + m.details(v)
}

// NegatedFailureMessage states the selected capacity and each point's
// verdict.
func (m capacityMatcher) NegatedFailureMessage(actual any) string {
	v, err := m.evaluate(actual)
	if err != nil {
		return err.Error()
	}
	return m.headline(v, "not to be at least") + m.details(v)
}

// String names the objective, for MeetSLOs and spec reports.
func (m capacityMatcher) String() string {
	return fmt.Sprintf("SLO capacity >= %.3f req/s", m.target)
}

// headline states the selection against the target.
func (m capacityMatcher) headline(v capacityVerdict, relation string) string {
	if v.sel.RPS == nil {
		return fmt.Sprintf("Expected SLO capacity %s %.3f req/s, but no tested offered rate passed", relation, m.target)
	}
	neighbor := ""
	if v.sel.FailingNeighborRPS != nil {
		neighbor = fmt.Sprintf("; failing neighbor %.3f req/s", *v.sel.FailingNeighborRPS)
	}
	return fmt.Sprintf("Expected SLO capacity %.3f req/s (%s%s) %s %.3f req/s",
		*v.sel.RPS, v.sel.Label, neighbor, relation, m.target)
}

// details renders the rule, every point's verdict (by offered rate) and the
// selection's notes.
func (m capacityMatcher) details(v capacityVerdict) string {
	rule := v.sweep.Rule
	alpha, conf := rule.MinAttainment, rule.Confidence
	if alpha == 0 {
		alpha = 0.95
	}
	if conf == 0 {
		conf = DefaultConfidence
	}
	var b strings.Builder
	judged := "attainment"
	if rule.UseWilsonLower {
		judged = numfmt.Level(conf) + " Wilson lower bound of attainment"
	}
	fmt.Fprintf(&b, "\nrule: %s >= %.3f, load delivered", judged, alpha)
	if rule.RequireNoBacklogGrowth {
		b.WriteString(", no backlog growth")
	}
	b.WriteString("\ntested points:")
	verdicts := append([]capacity.PointVerdict(nil), v.sel.Verdicts...)
	sort.SliceStable(verdicts, func(i, j int) bool { return verdicts[i].OfferedRPS < verdicts[j].OfferedRPS })
	for _, p := range verdicts {
		verdict := p.Verdict
		if verdict == "" { // a verdict from before verdicts were named
			verdict = map[bool]string{true: "pass", false: "fail"}[p.Pass]
		}
		value := p.Attainment
		if rule.UseWilsonLower {
			value = p.WilsonLower
		}
		shown := numfmt.OptFixed(value, 3)
		fmt.Fprintf(&b, "\n    %.3f req/s: %s (%s %s)", p.OfferedRPS, verdict, judged, shown)
		if len(p.Reasons) > 0 {
			b.WriteString(": " + strings.Join(p.Reasons, "; "))
		}
	}
	for _, n := range v.sel.Notes {
		b.WriteString("\nnote: " + n)
	}
	return b.String()
}

// Measured states the selected SLO capacity: "20.000 req/s", or "none"
// when no tested rate passed.
func (m capacityMatcher) Measured(actual any) (string, error) {
	v, err := m.evaluate(actual)
	if err != nil {
		return "", err
	}
	if v.sel.RPS == nil {
		return "none", nil
	}
	return fmt.Sprintf("%.3f req/s", *v.sel.RPS), nil
}
