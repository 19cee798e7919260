package servebench

import (
	"fmt"
	"slices"
	"strings"

	"github.com/servebench/servebench/internal/numfmt"
	"github.com/servebench/servebench/servebench/stats"
)

// CapacityRule declares when a tested offered rate passes: its attainment
// (or, with UseWilsonLower, the one-sided Wilson lower bound of it at
// Confidence) is at least MinAttainment, the load was delivered (nothing
// unsent, schedule lag within tolerance) and, with RequireNoBacklogGrowth,
// outstanding work did not grow over the window.
type CapacityRule struct {
	// MinAttainment is α, the required fraction of offered requests that
	// qualify; zero means 0.95.
	MinAttainment float64 `json:"min_attainment"`
	// UseWilsonLower judges the Wilson lower bound instead of the observed
	// attainment.
	UseWilsonLower bool `json:"use_wilson_lower"`
	// Confidence is the Wilson bound's confidence; zero means 0.95.
	Confidence float64 `json:"confidence"`
	// RequireNoBacklogGrowth fails a point whose backlog grew (or was not
	// measured).
	RequireNoBacklogGrowth bool `json:"require_no_backlog_growth"`
}

// SweepPoint is one tested offered rate and the report of its run.
type SweepPoint struct {
	// OfferedRPS is the rate the run was declared at; zero takes the
	// report's realized offered rate.
	OfferedRPS float64 `json:"offered_rps"`
	// Repeat numbers the run at this rate from 1; zero when unknown.
	Repeat int `json:"repeat,omitempty"`
	// Users is the closed-loop users of a point of a user search (see
	// AutoUsers); zero for an offered-rate point.
	Users int `json:"users,omitempty"`
	// RunDir is the run's directory, when it was written to one.
	RunDir string  `json:"run_dir,omitempty"`
	Report *Report `json:"report"`
}

// Sweep is a set of runs at increasing offered rates with the capacity
// selected from them.
type Sweep struct {
	Points    []SweepPoint      `json:"points"`
	Rule      CapacityRule      `json:"rule"`
	Selection CapacitySelection `json:"selection"`
	// Arrival is the declared arrival process the rates were applied to;
	// nil when the sweep was assembled from reports.
	Arrival *ArrivalSpec `json:"arrival,omitempty"`
	// Auto is the knee search that chose the rates, when one did.
	Auto *AutoRates `json:"auto,omitempty"`
	// AutoUsers is the closed-loop user search that chose the points, when
	// one did; Concurrency is then its SLO concurrency.
	AutoUsers   *AutoUsers            `json:"auto_users,omitempty"`
	Concurrency *ConcurrencySelection `json:"concurrency,omitempty"`
	// Capacity is the answer as a bracket with its confidence, for a rate
	// or a user search alike (see BracketOf).
	Capacity *CapacityBracket `json:"capacity,omitempty"`
}

// NewSweep selects the capacity of points under rule.
func NewSweep(points []SweepPoint, rule CapacityRule) *Sweep {
	return &Sweep{Points: points, Rule: rule, Selection: SelectCapacity(points, rule)}
}

// CapacitySelection is the SLO capacity a sweep supports, labelled for what
// it is: the highest tested offered rate that passed, not a proven maximum
// between tested points, a certified service level or a safe production
// target.
type CapacitySelection struct {
	// RPS is the highest passing tested offered rate; nil when none passed.
	RPS *float64 `json:"rps"`
	// Label says what RPS is.
	Label string `json:"label"`
	// FailingNeighborRPS is the lowest tested rate above RPS that failed
	// (the next point to refine and repeat); nil when there is none.
	FailingNeighborRPS *float64 `json:"failing_neighbor_rps"`
	// Verdicts has one entry per point, in the order of the points.
	Verdicts []PointVerdict `json:"verdicts"`
	// InconclusiveRPS lists the tested rates, lowest first, that did not
	// pass only because a criterion could not be judged; such a rate does
	// not pass, and the notes say what window would decide it.
	InconclusiveRPS []float64 `json:"inconclusive_rps,omitempty"`
	// Monotonic is false when a tested rate below the selected one did not
	// pass.
	Monotonic bool `json:"monotonic"`
	// Notes warns about what the selection cannot show.
	Notes []string `json:"notes,omitempty"`
}

// PointVerdict is the rule's verdict on one sweep point.
type PointVerdict struct {
	OfferedRPS float64 `json:"offered_rps"`
	// Users is the point's closed-loop users in a user search; zero for an
	// offered-rate point.
	Users int  `json:"users,omitempty"`
	Pass  bool `json:"pass"`
	// Verdict is VerdictPass, VerdictFail, or VerdictInconclusive when the
	// point's only problems are criteria that could not be judged (the
	// backlog on a window too short to settle, or not measured; attainment
	// with nothing offered). An inconclusive point does not pass.
	Verdict string `json:"verdict"`
	// DecidingWindowMS is, for an inconclusive backlog, the arrival window
	// that would let it be judged: twice the p90 duration (e - d) of the
	// requests scheduled in the window's first quarter. Nil otherwise or
	// when no such request ended.
	DecidingWindowMS *float64 `json:"deciding_window_ms,omitempty"`
	// Attainment and WilsonLower are the point's figures (the bound at the
	// rule's confidence); Judged names which one the rule compared.
	Attainment  *float64 `json:"attainment"`
	WilsonLower *float64 `json:"wilson_lower"`
	Judged      string   `json:"judged"`
	// Valid says whether the load was delivered.
	Valid bool `json:"valid"`
	// BacklogGrowing is nil when the backlog was not measured.
	BacklogGrowing *bool `json:"backlog_growing"`
	// Reasons lists why the point failed.
	Reasons []string `json:"reasons"`
}

// The verdicts of a PointVerdict, also the verdict values of sweep.json.
// The field stays a string so that the set can grow; Verdicts lists it.
const (
	VerdictPass         = "pass"
	VerdictFail         = "fail"
	VerdictInconclusive = "inconclusive"
)

// Verdicts lists every verdict value a point can have, in one place, for
// documentation and validation. The slice is the caller's own.
func Verdicts() []string { return []string{VerdictPass, VerdictFail, VerdictInconclusive} }

// The labels of a CapacitySelection.
const (
	CapacityLabelHighestPassing = "highest passing tested offered rate"
	CapacityLabelNonePassed     = "no tested offered rate passed"
)

// SelectCapacity judges every point by rule and selects the highest passing
// tested offered rate. A rate tested more than once passes only when every
// run at it passed. A closed-loop run never passes: its offered rate falls
// as the server slows, so it is not evidence for an external arrival rate.
func SelectCapacity(points []SweepPoint, rule CapacityRule) CapacitySelection {
	rule = rule.withDefaults()
	sel := CapacitySelection{Label: CapacityLabelNonePassed, Verdicts: make([]PointVerdict, 0, len(points)), Monotonic: true}
	for _, p := range points {
		sel.Verdicts = append(sel.Verdicts, judgePoint(p, rule))
	}
	// A rate passes when all its runs passed; it fails when any run failed,
	// and is inconclusive otherwise.
	rateVerdict := RateVerdicts(sel.Verdicts)
	ratePass := map[float64]bool{}
	rates := make([]float64, 0, len(rateVerdict))
	for r, v := range rateVerdict {
		ratePass[r] = v == VerdictPass
		rates = append(rates, r)
	}
	slices.Sort(rates)
	window := map[float64]float64{}
	for _, v := range sel.Verdicts {
		if v.DecidingWindowMS != nil {
			window[v.OfferedRPS] = max(window[v.OfferedRPS], *v.DecidingWindowMS)
		}
	}
	for _, r := range rates {
		if rateVerdict[r] != VerdictInconclusive {
			continue
		}
		sel.InconclusiveRPS = append(sel.InconclusiveRPS, r)
		if w, ok := window[r]; ok {
			sel.Notes = append(sel.Notes, fmt.Sprintf("%s rps is inconclusive: a criterion could not be judged; an arrival window of at least %.1f s would decide it", numfmt.Compact(r), w/1000))
		} else {
			sel.Notes = append(sel.Notes, fmt.Sprintf("%s rps is inconclusive: a criterion could not be judged; measure it on a longer window", numfmt.Compact(r)))
		}
	}
	best := -1
	for i, r := range rates {
		if ratePass[r] {
			best = i
		}
	}
	if best < 0 {
		if len(rates) > 0 {
			sel.Notes = append(sel.Notes, fmt.Sprintf("even the lowest tested rate (%s rps) did not pass: test lower rates or longer windows", numfmt.Compact(rates[0])))
		}
		return sel
	}
	sel.RPS = ptr(rates[best])
	sel.Label = CapacityLabelHighestPassing
	for _, r := range rates[best+1:] {
		if !ratePass[r] {
			sel.FailingNeighborRPS = ptr(r)
			break
		}
	}
	if best == len(rates)-1 {
		sel.Notes = append(sel.Notes, "the highest tested rate passed: the boundary lies above the tested range")
	} else {
		sel.Notes = append(sel.Notes, fmt.Sprintf("the boundary lies between %s and %s rps: refine between them and repeat the failing neighbor",
			numfmt.Compact(rates[best]), numfmt.Compact(*sel.FailingNeighborRPS)))
	}
	for _, r := range rates[:best] {
		if !ratePass[r] {
			sel.Monotonic = false
			sel.Notes = append(sel.Notes, fmt.Sprintf("a lower rate (%s rps) did not pass while %s rps passed: the results are not monotonic; repeat the runs before trusting the boundary",
				numfmt.Compact(r), numfmt.Compact(rates[best])))
			break
		}
	}
	return sel
}

// RateVerdicts folds point verdicts into one verdict per tested rate: pass
// when every run at the rate passed, fail when any failed, inconclusive
// otherwise.
func RateVerdicts(verdicts []PointVerdict) map[float64]string {
	return foldVerdicts(verdicts, func(v PointVerdict) float64 { return v.OfferedRPS })
}

// UserVerdicts folds the verdicts of a user search into one verdict per
// tested number of users, as RateVerdicts does per rate.
func UserVerdicts(verdicts []PointVerdict) map[int]string {
	return foldVerdicts(verdicts, func(v PointVerdict) int { return v.Users })
}

// foldVerdicts folds point verdicts by level: pass when every run at the
// level passed, fail when any failed, inconclusive otherwise.
func foldVerdicts[K comparable](verdicts []PointVerdict, level func(PointVerdict) K) map[K]string {
	out := map[K]string{}
	for _, v := range verdicts {
		k := level(v)
		prev, seen := out[k]
		switch {
		case !seen || prev == VerdictPass:
			out[k] = v.Verdict
		case prev == VerdictInconclusive && v.Verdict == VerdictFail:
			out[k] = VerdictFail
		}
	}
	return out
}

func (rule CapacityRule) withDefaults() CapacityRule {
	if rule.MinAttainment == 0 {
		rule.MinAttainment = 0.95
	}
	if rule.Confidence == 0 {
		rule.Confidence = 0.95
	}
	return rule
}

// judgePoint applies the rule to one point.
func judgePoint(p SweepPoint, rule CapacityRule) PointVerdict {
	v := PointVerdict{OfferedRPS: p.OfferedRPS, Users: p.Users, Judged: "attainment", Reasons: []string{}, Verdict: VerdictFail}
	undecided := 0 // reasons that are criteria not judged rather than failed
	if rule.UseWilsonLower {
		v.Judged = fmt.Sprintf("wilson_lower@%g", rule.Confidence)
	}
	r := p.Report
	if r == nil {
		v.Reasons = append(v.Reasons, "no report")
		return v
	}
	if v.OfferedRPS == 0 && r.OfferedRPS != nil {
		v.OfferedRPS = *r.OfferedRPS
	}
	v.Valid = r.Valid
	v.Attainment = r.Attainment
	if lo, ok := stats.WilsonLower(r.Qualified, r.Offered, rule.Confidence); ok {
		v.WilsonLower = ptr(lo)
	}
	if r.Backlog != nil && !r.Backlog.Inconclusive {
		v.BacklogGrowing = ptr(r.Backlog.Growing)
	}
	if !(rule.MinAttainment > 0 && rule.MinAttainment <= 1) || !(rule.Confidence > 0 && rule.Confidence < 1) {
		v.Reasons = append(v.Reasons, fmt.Sprintf("invalid rule: min attainment %g, confidence %g", rule.MinAttainment, rule.Confidence))
		return v
	}
	v.Reasons = append(v.Reasons, closedLoopReasons(p)...)
	judged := v.Attainment
	what := "attainment"
	if rule.UseWilsonLower {
		judged = v.WilsonLower
		what = "Wilson " + numfmt.Level(rule.Confidence) + " lower bound"
	}
	switch {
	case judged == nil:
		v.Reasons = append(v.Reasons, what+" undefined (nothing offered)")
		undecided++
	case *judged < rule.MinAttainment:
		v.Reasons = append(v.Reasons, fmt.Sprintf("%s %.3f (%d of %d qualified) below %.3f",
			what, *judged, r.Qualified, r.Offered, rule.MinAttainment))
	}
	v.Reasons = append(v.Reasons, deliveryReasons(p)...)
	if rule.RequireNoBacklogGrowth && p.Users == 0 {
		switch {
		case r.Backlog == nil:
			v.Reasons = append(v.Reasons, "backlog not measured, so no growth cannot be shown")
			undecided++
		case r.Backlog.Inconclusive:
			v.Reasons = append(v.Reasons, "backlog "+r.Backlog.Note)
			undecided++
			v.DecidingWindowMS = decidingWindowMS(r)
		case r.Backlog.Growing:
			v.Reasons = append(v.Reasons, fmt.Sprintf("backlog grew from %d outstanding at the window's midpoint to %d at its end",
				r.Backlog.AtWindowMid, r.Backlog.AtWindowEnd))
		}
	}
	v.Pass = len(v.Reasons) == 0
	switch {
	case v.Pass:
		v.Verdict = VerdictPass
	case undecided == len(v.Reasons):
		v.Verdict = VerdictInconclusive
	}
	if v.Verdict != VerdictInconclusive {
		v.DecidingWindowMS = nil
	}
	return v
}

// closedLoopReasons refuses a closed-loop run as a point of an offered-rate
// sweep: its offered rate falls as the server slows, so it is not evidence
// for an external arrival rate. A user search's points are closed loops by
// design.
func closedLoopReasons(p SweepPoint) []string {
	if g := p.Report.Generator; g != nil && g.Mode == ModeClosed && p.Users == 0 {
		return []string{"closed-loop run: not evidence for an offered arrival rate"}
	}
	return nil
}

// deliveryReasons says why a point's load was not delivered. An
// offered-rate point needs a valid run (nothing unsent, lag in tolerance);
// a point of a user search (SLO concurrency) asks only that no request went
// unsent: a closed loop's users wait for the server, so their lag is the
// server's answer, not the generator's failure.
func deliveryReasons(p SweepPoint) []string {
	r := p.Report
	if p.Users == 0 {
		if r.Valid {
			return nil
		}
		return []string{"load not delivered: " + strings.Join(r.InvalidReasons, "; ")}
	}
	if n := r.StatusCounts[StatusNotSent]; n > 0 {
		return []string{fmt.Sprintf("%d requests not sent", n)}
	}
	return nil
}

// decidingWindowMS is the arrival window on which the backlog rule could
// judge a run like r: its first half must cover the p90 duration (e - d,
// nearest rank) of the requests scheduled in its first quarter, so the
// window is twice that. Nil when no such request has a duration.
func decidingWindowMS(r *Report) *float64 {
	quarter := r.WindowMS[0] + (r.WindowMS[1]-r.WindowMS[0])/4
	var d []float64
	for i := range r.Requests {
		q := &r.Requests[i]
		if q.ScheduledMS < quarter && q.E2EMS != nil && finite(*q.E2EMS) {
			d = append(d, *q.E2EMS)
		}
	}
	slices.Sort(d)
	p90, ok := stats.Percentile(d, 90, stats.NearestRank)
	if !ok {
		return nil
	}
	return ptr(2 * p90)
}

// GomegaString renders the sweep compactly for Gomega failure messages: the
// rule, each point's verdict and the selection.
func (s *Sweep) GomegaString() string {
	if s == nil {
		return "Sweep<nil>"
	}
	rule := s.Rule.withDefaults()
	var b strings.Builder
	judged := "attainment"
	if rule.UseWilsonLower {
		judged = "Wilson " + numfmt.Level(rule.Confidence) + " lower bound"
	}
	fmt.Fprintf(&b, "Sweep{rule: %s >= %.3f, load delivered", judged, rule.MinAttainment)
	if rule.RequireNoBacklogGrowth {
		b.WriteString(", no backlog growth")
	}
	b.WriteString("; points:")
	for i, v := range s.Selection.Verdicts {
		if i > 0 {
			b.WriteString(",")
		}
		verdict := "pass"
		switch v.Verdict {
		case VerdictInconclusive:
			verdict = "INCONCLUSIVE (" + strings.Join(v.Reasons, "; ") + ")"
		case VerdictFail:
			verdict = "FAIL (" + strings.Join(v.Reasons, "; ") + ")"
		}
		fmt.Fprintf(&b, " %s rps attainment %s %s", numfmt.Compact(v.OfferedRPS), numfmt.OptFixed(v.Attainment, 3), verdict)
	}
	if s.Selection.RPS != nil {
		fmt.Fprintf(&b, "; capacity %s rps (%s", numfmt.Compact(*s.Selection.RPS), s.Selection.Label)
		if s.Selection.FailingNeighborRPS != nil {
			fmt.Fprintf(&b, "; failing neighbor %s rps", numfmt.Compact(*s.Selection.FailingNeighborRPS))
		}
		b.WriteString(")}")
	} else {
		fmt.Fprintf(&b, "; capacity none (%s)}", s.Selection.Label)
	}
	return b.String()
}
