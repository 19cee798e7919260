package capacity

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/servebench/servebench/internal/numfmt"
	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/servebench/report"
	"github.com/servebench/servebench/servebench/schedule"
	"github.com/servebench/servebench/servebench/stats"
)

// Rule declares when a tested offered rate passes: its attainment
// (or, with UseWilsonLower, the one-sided Wilson lower bound of it at
// Confidence) is at least MinAttainment, the load was delivered (nothing
// unsent, schedule lag within tolerance) and, with RequireNoBacklogGrowth,
// outstanding work did not grow over the window.
type Rule struct {
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

// Point is one tested offered rate and the report of its run.
type Point struct {
	// OfferedRPS is the rate the run was declared at; zero takes the
	// report's realized offered rate.
	OfferedRPS float64 `json:"offered_rps"`
	// Repeat numbers the run at this rate from 1; zero when unknown.
	Repeat int `json:"repeat,omitempty"`
	// Users is the closed-loop users of a point of a user search (see
	// AutoUsers); zero for an offered-rate point.
	Users int `json:"users,omitempty"`
	// RunDir is the run's directory, when it was written to one.
	RunDir string         `json:"run_dir,omitempty"`
	Report *report.Report `json:"report"`
	// Interrupted is set when the run was cut short (Ctrl-C, SIGTERM):
	// its verdict is VerdictInterrupted, and no capacity, knee or failing
	// neighbour is derived from it.
	Interrupted bool `json:"interrupted,omitempty"`
	// BatchSize is the inputs per request of a batch-size sweep's point
	// (RunBatchSweep); zero for a rate sweep.
	BatchSize int `json:"batch_size,omitempty"`
}

// Sweep is a set of runs at increasing offered rates with the capacity
// selected from them.
type Sweep struct {
	Points    []Point   `json:"points"`
	Rule      Rule      `json:"rule"`
	Selection Selection `json:"selection"`
	// Arrival is the declared arrival process the rates were applied to;
	// nil when the sweep was assembled from reports.
	Arrival *schedule.ArrivalSpec `json:"arrival,omitempty"`
	// Auto is the knee search that chose the rates, when one did.
	Auto *AutoRates `json:"auto,omitempty"`
	// AutoUsers is the closed-loop user search that chose the points, when
	// one did; Concurrency is then its SLO concurrency.
	AutoUsers   *AutoUsers            `json:"auto_users,omitempty"`
	Concurrency *ConcurrencySelection `json:"concurrency,omitempty"`
	// Capacity is the answer as a bracket with its confidence, for a rate
	// or a user search alike (see BracketOf).
	Capacity *Bracket `json:"capacity,omitempty"`
}

// NewSweep selects the capacity of points under rule.
func NewSweep(points []Point, rule Rule) *Sweep {
	return &Sweep{Points: points, Rule: rule, Selection: Select(points, rule)}
}

// Selection is the SLO capacity a sweep supports, labelled for what
// it is: the highest tested offered rate that passed, not a proven maximum
// between tested points, a certified service level or a safe production
// target.
type Selection struct {
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
	// GeneratorBoundRPS lists the tested rates, lowest first, whose
	// objectives held but whose load the client did not deliver: the
	// client was the limit there, and the engine's capacity is at least
	// RPS.
	GeneratorBoundRPS []float64 `json:"generator_bound_rps,omitempty"`
	// Monotonic is false when a tested rate below the selected one failed
	// or was inconclusive (a generator-bound rate says nothing about the
	// engine).
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
	// Verdict is VerdictPass, VerdictFail, VerdictInconclusive when the
	// point's only problems are criteria that could not be judged (the
	// backlog on a window too short to settle, or not measured; attainment
	// with nothing offered), or VerdictGeneratorBound when every objective
	// held but the client did not deliver the load (a request unsent or
	// sent later than the tolerance): a fact about the client, not the
	// engine. A point whose objectives failed is VerdictFail whether or not
	// its load was delivered, since the objectives are timed from send.
	// VerdictInterrupted marks a run that was cut short. Only VerdictPass
	// passes.
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
	// MaxScheduleLagMS is the run's largest schedule lag (d − a), the
	// measure of how far the client fell behind; nil when nothing was sent.
	MaxScheduleLagMS *float64 `json:"max_schedule_lag_ms"`
	// ScheduleLagToleranceMS is the tolerance the lag was judged against.
	ScheduleLagToleranceMS float64 `json:"schedule_lag_tolerance_ms"`
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
	// VerdictGeneratorBound: the objectives held, the load was not
	// delivered; neither a pass nor the knee's failing neighbour.
	VerdictGeneratorBound = "generator_bound"
	// VerdictInterrupted marks a point whose run was interrupted: it is
	// neither passed nor failed, and its rate takes no part in the
	// selection.
	VerdictInterrupted = "interrupted"
)

// Verdicts lists every verdict value a point can have, in one place, for
// documentation and validation. The slice is the caller's own.
func Verdicts() []string {
	return []string{VerdictPass, VerdictFail, VerdictInconclusive, VerdictGeneratorBound, VerdictInterrupted}
}

// The labels of a Selection.
const (
	LabelHighestPassing = "highest passing tested offered rate"
	LabelNonePassed     = "no tested offered rate passed"
)

// Select judges every point by rule and selects the highest passing
// tested offered rate. A rate tested more than once passes only when every
// run at it passed. A closed-loop run never passes: its offered rate falls
// as the server slows, so it is not evidence for an external arrival rate.
func Select(points []Point, rule Rule) Selection {
	rule = rule.withDefaults()
	sel := Selection{Label: LabelNonePassed, Verdicts: make([]PointVerdict, 0, len(points)), Monotonic: true}
	for _, p := range points {
		sel.Verdicts = append(sel.Verdicts, judgePoint(p, rule))
	}
	// A rate passes when all its runs passed; it fails when any run failed,
	// and is inconclusive otherwise.
	rateVerdict := RateVerdicts(sel.Verdicts)
	ratePass := map[float64]bool{}
	rates := make([]float64, 0, len(rateVerdict))
	for r, v := range rateVerdict {
		if v == VerdictInterrupted {
			continue
		}
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
	sel.GeneratorBoundRPS = ratesWith(rates, rateVerdict, VerdictGeneratorBound)
	best := -1
	for i, r := range rates {
		if ratePass[r] {
			best = i
		}
	}
	if best >= 0 {
		sel.RPS = new(rates[best])
		sel.Label = LabelHighestPassing
		selectBoundary(&sel, rates, rateVerdict, best)
	}
	switch {
	case len(sel.GeneratorBoundRPS) > 0:
		sel.Notes = append(sel.Notes, generatorBoundNote(sel, rateVerdict))
	case best < 0 && len(rates) > 0:
		sel.Notes = append(sel.Notes, fmt.Sprintf("even the lowest tested rate (%s rps) did not pass: test lower rates or longer windows", numfmt.Compact(rates[0])))
	}
	return sel
}

// selectBoundary fills the failing neighbour of the passing rate at index
// best, the boundary note and monotonicity. Generator-bound rates are
// skipped: they say nothing about the engine.
func selectBoundary(sel *Selection, rates []float64, verdict map[float64]string, best int) {
	for _, r := range rates[best+1:] {
		if v := verdict[r]; v != VerdictPass && v != VerdictGeneratorBound {
			sel.FailingNeighborRPS = new(r)
			break
		}
	}
	switch {
	case sel.FailingNeighborRPS != nil:
		sel.Notes = append(sel.Notes, fmt.Sprintf("the boundary lies between %s and %s rps: refine between them and repeat the failing neighbor",
			numfmt.Compact(rates[best]), numfmt.Compact(*sel.FailingNeighborRPS)))
	case best == len(rates)-1:
		sel.Notes = append(sel.Notes, "the highest tested rate passed: the boundary lies above the tested range")
	}
	for _, r := range rates[:best] {
		if v := verdict[r]; v != VerdictPass && v != VerdictGeneratorBound {
			sel.Monotonic = false
			sel.Notes = append(sel.Notes, fmt.Sprintf("a lower rate (%s rps) did not pass while %s rps passed: the results are not monotonic; repeat the runs before trusting the boundary",
				numfmt.Compact(r), numfmt.Compact(rates[best])))
			break
		}
	}
}

// ratesWith lists, in order, the rates whose verdict is want.
func ratesWith(rates []float64, verdict map[float64]string, want string) []float64 {
	var out []float64
	for _, r := range rates {
		if verdict[r] == want {
			out = append(out, r)
		}
	}
	return out
}

// generatorBoundNote says that the client, not the engine, was the limit:
// what the capacity is at least, the lag it measured and what to do.
func generatorBoundNote(sel Selection, verdict map[float64]string) string {
	var lag *float64
	tolerance := 0.0
	for _, v := range sel.Verdicts {
		if verdict[v.OfferedRPS] != VerdictGeneratorBound {
			continue
		}
		tolerance = v.ScheduleLagToleranceMS
		if v.MaxScheduleLagMS != nil && (lag == nil || *v.MaxScheduleLagMS > *lag) {
			lag = v.MaxScheduleLagMS
		}
	}
	at := make([]string, len(sel.GeneratorBoundRPS))
	for i, r := range sel.GeneratorBoundRPS {
		at[i] = numfmt.Compact(r)
	}
	capacity := "no tested rate passed, so the engine's capacity is not measured"
	if sel.RPS != nil {
		capacity = fmt.Sprintf("the SLO capacity is at least %s rps, the highest passing rate", numfmt.Compact(*sel.RPS))
	}
	return fmt.Sprintf("the client was the limit at %s rps (generator_bound): the objectives held but it could not send on schedule "+
		"(max schedule lag %s ms, tolerance %s ms); %s; give the client more cores, shard the run (run --shard), or loosen --schedule-lag-tolerance",
		strings.Join(at, ", "), numfmt.OptCompact(lag), numfmt.Compact(tolerance), capacity)
}

// AllGeneratorBound reports whether every tested rate was generator_bound:
// the sweep measured the client, not the engine.
func (sel Selection) AllGeneratorBound() bool {
	if len(sel.Verdicts) == 0 {
		return false
	}
	for _, v := range sel.Verdicts {
		if v.Verdict != VerdictGeneratorBound {
			return false
		}
	}
	return true
}

// RateVerdicts folds point verdicts into one verdict per tested rate:
// interrupted when a run at the rate was interrupted, else pass when every
// run at the rate passed, fail when any failed, else generator_bound when a
// run was, else inconclusive.
func RateVerdicts(verdicts []PointVerdict) map[float64]string {
	return foldVerdicts(verdicts, func(v PointVerdict) float64 { return v.OfferedRPS })
}

// UserVerdicts folds the verdicts of a user search into one verdict per
// tested number of users, as RateVerdicts does per rate.
func UserVerdicts(verdicts []PointVerdict) map[int]string {
	return foldVerdicts(verdicts, func(v PointVerdict) int { return v.Users })
}

// foldVerdicts folds point verdicts by level: the worst verdict of the
// level's runs wins (verdictRank).
func foldVerdicts[K comparable](verdicts []PointVerdict, level func(PointVerdict) K) map[K]string {
	out := map[K]string{}
	for _, v := range verdicts {
		k := level(v)
		if prev, seen := out[k]; !seen || verdictRank(v.Verdict) > verdictRank(prev) {
			out[k] = v.Verdict
		}
	}
	return out
}

// verdictRank orders verdicts for folding several runs at one rate: the
// worst wins.
func verdictRank(v string) int {
	switch v {
	case VerdictPass:
		return 0
	case VerdictInconclusive:
		return 1
	case VerdictGeneratorBound:
		return 2
	case VerdictInterrupted:
		return 4
	}
	return 3
}

func (rule Rule) withDefaults() Rule {
	if rule.MinAttainment == 0 {
		rule.MinAttainment = 0.95
	}
	if rule.Confidence == 0 {
		rule.Confidence = 0.95
	}
	return rule
}

// judgePoint applies the rule to one point.
func judgePoint(p Point, rule Rule) PointVerdict {
	v := PointVerdict{OfferedRPS: p.OfferedRPS, Users: p.Users, Judged: "attainment", Reasons: []string{}, Verdict: VerdictFail}
	if rule.UseWilsonLower {
		v.Judged = fmt.Sprintf("wilson_lower@%g", rule.Confidence)
	}
	if judgesSessions(p) {
		v.Judged = "session_" + v.Judged
	}
	if p.Interrupted {
		v.Verdict, v.Reasons = VerdictInterrupted, []string{"the run was interrupted: nothing is derived from this point"}
		return v
	}
	r := p.Report
	if r == nil {
		v.Reasons = append(v.Reasons, "no report")
		return v
	}
	v.takeFigures(r, rule.Confidence)
	if judgesSessions(p) {
		v.takeSessionFigures(r.Sessions, rule.Confidence)
	}
	if !(rule.MinAttainment > 0 && rule.MinAttainment <= 1) || !(rule.Confidence > 0 && rule.Confidence < 1) {
		v.Reasons = append(v.Reasons, fmt.Sprintf("invalid rule: min attainment %g, confidence %g", rule.MinAttainment, rule.Confidence))
		return v
	}
	v.Reasons = append(v.Reasons, closedLoopReasons(p)...)
	undecided := v.judgeAttainment(r, rule) // reasons that are criteria not judged rather than failed
	undelivered := 0                        // the reason that the client did not deliver the load
	if reasons := deliveryReasons(p); len(reasons) > 0 {
		v.Reasons = append(v.Reasons, reasons...)
		// In a closed loop a request goes unsent because its user was still
		// waiting on the engine when the window closed: a failure of the
		// point, not the client's limit (generator_bound is for rates).
		if p.Users == 0 {
			undelivered++
		}
	}
	if rule.RequireNoBacklogGrowth && p.Users == 0 {
		undecided += v.judgeBacklog(r)
	}
	v.settle(undecided, undelivered)
	return v
}

// takeFigures copies a point's report figures into its verdict: the
// offered rate when the point had none, validity, schedule lag,
// attainment, its Wilson lower bound at confidence, and backlog growth
// when conclusive.
func (v *PointVerdict) takeFigures(r *report.Report, confidence float64) {
	if v.OfferedRPS == 0 && r.OfferedRPS != nil {
		v.OfferedRPS = *r.OfferedRPS
	}
	v.Valid = r.Valid
	v.MaxScheduleLagMS, v.ScheduleLagToleranceMS = r.MaxScheduleLagMS, r.ScheduleLagToleranceMS
	v.Attainment = r.Attainment
	if lo, ok := stats.WilsonLower(r.Qualified, r.Offered, confidence); ok {
		v.WilsonLower = new(lo)
	}
	if r.Backlog != nil && !r.Backlog.Inconclusive {
		v.BacklogGrowing = new(r.Backlog.Growing)
	}
}

// judgeAttainment adds the reason the judged attainment (or its Wilson
// lower bound) fails the rule, if it does, and returns 1 when it is
// undefined (a criterion not judged), else 0.
func (v *PointVerdict) judgeAttainment(r *report.Report, rule Rule) int {
	judged := v.Attainment
	what := "attainment"
	if rule.UseWilsonLower {
		judged = v.WilsonLower
		what = "Wilson " + numfmt.Level(rule.Confidence) + " lower bound"
	}
	switch {
	case judged == nil:
		v.Reasons = append(v.Reasons, what+" undefined (nothing offered)")
		return 1
	case *judged < rule.MinAttainment && strings.HasPrefix(v.Judged, "session_"):
		v.Reasons = append(v.Reasons, fmt.Sprintf("session %s %.3f (%d of %d sessions qualified) below %.3f",
			what, *judged, r.Sessions.Qualified, r.Sessions.Judged(), rule.MinAttainment))
	case *judged < rule.MinAttainment:
		v.Reasons = append(v.Reasons, fmt.Sprintf("%s %.3f (%d of %d qualified) below %.3f",
			what, *judged, r.Qualified, r.Offered, rule.MinAttainment))
	}
	return 0
}

// judgesSessions says whether a point is judged by its sessions: a point
// of a user search whose workload has conversations (its report has
// sessions), so that the search is for the most concurrent agents whose
// session attainment meets the rule.
func judgesSessions(p Point) bool {
	return p.Users > 0 && p.Report != nil && p.Report.Sessions != nil && p.Report.Sessions.Offered > 0
}

// judgedCounts are the qualified and offered counts a point is judged by:
// its sessions' (the truncated ones left out) when it judges sessions, else
// its requests'.
func judgedCounts(p Point) (qualified, offered int) {
	if judgesSessions(p) {
		return p.Report.Sessions.Qualified, p.Report.Sessions.Judged()
	}
	return p.Report.Qualified, p.Report.Offered
}

// takeSessionFigures replaces the attainment and its bound by the
// sessions': a session qualifies when every one of its turns qualifies.
func (v *PointVerdict) takeSessionFigures(s *report.Sessions, confidence float64) {
	v.Attainment, v.WilsonLower = s.Attainment, nil
	if lo, ok := stats.WilsonLower(s.Qualified, s.Judged(), confidence); ok {
		v.WilsonLower = new(lo)
	}
}

// judgeBacklog adds the reason the backlog fails the no-growth rule, if it
// does, and returns 1 when growth was not measured or is inconclusive (a
// criterion not judged; an inconclusive one keeps the window that would
// decide it), else 0.
func (v *PointVerdict) judgeBacklog(r *report.Report) int {
	switch {
	case r.Backlog == nil:
		v.Reasons = append(v.Reasons, "backlog not measured, so no growth cannot be shown")
		return 1
	case r.Backlog.Inconclusive:
		v.Reasons = append(v.Reasons, "backlog "+r.Backlog.Note)
		v.DecidingWindowMS = decidingWindowMS(r)
		return 1
	case r.Backlog.Growing:
		v.Reasons = append(v.Reasons, fmt.Sprintf("backlog grew from %d outstanding at the window's midpoint to %d at its end",
			r.Backlog.AtWindowMid, r.Backlog.AtWindowEnd))
	}
	return 0
}

// settle gives the verdict from the reasons: pass without any, generator
// bound when every reason is undelivered load or a criterion not judged
// and the load was not delivered, inconclusive when every reason is a
// criterion not judged, fail otherwise. Only an inconclusive verdict keeps
// its deciding window.
func (v *PointVerdict) settle(undecided, undelivered int) {
	v.Pass = len(v.Reasons) == 0
	switch {
	case v.Pass:
		v.Verdict = VerdictPass
	case undelivered > 0 && undecided+undelivered == len(v.Reasons):
		v.Verdict = VerdictGeneratorBound
	case undecided == len(v.Reasons):
		v.Verdict = VerdictInconclusive
	}
	if v.Verdict != VerdictInconclusive {
		v.DecidingWindowMS = nil
	}
}

// closedLoopReasons refuses a closed-loop run as a point of an offered-rate
// sweep: its offered rate falls as the server slows, so it is not evidence
// for an external arrival rate. A user search's points are closed loops by
// design.
func closedLoopReasons(p Point) []string {
	if g := p.Report.Generator; g != nil && g.Mode == schedule.ModeClosed && p.Users == 0 {
		return []string{"closed-loop run: not evidence for an offered arrival rate"}
	}
	return nil
}

// deliveryReasons says why a point's load was not delivered. An
// offered-rate point needs a valid run (nothing unsent, lag in tolerance);
// a point of a user search (SLO concurrency) asks only that no request went
// unsent: a closed loop's users wait for the server, so their lag is the
// server's answer, not the generator's failure.
func deliveryReasons(p Point) []string {
	r := p.Report
	if p.Users == 0 {
		if r.Valid {
			return nil
		}
		return []string{"load not delivered: " + strings.Join(r.InvalidReasons, "; ")}
	}
	if n := r.StatusCounts[record.StatusNotSent]; n > 0 {
		return []string{fmt.Sprintf("%d requests not sent", n)}
	}
	return nil
}

// decidingWindowMS is the arrival window on which the backlog rule could
// judge a run like r: its first half must cover the p90 duration (e - d,
// nearest rank) of the requests scheduled in its first quarter, so the
// window is twice that. Nil when no such request has a duration.
func decidingWindowMS(r *report.Report) *float64 {
	quarter := r.WindowMS[0] + (r.WindowMS[1]-r.WindowMS[0])/4
	var d []float64
	err := r.EachRequest(func(q *report.RequestScore) error {
		if q.ScheduledMS < quarter && q.E2EMS != nil && !math.IsNaN(*q.E2EMS) && !math.IsInf(*q.E2EMS, 0) {
			d = append(d, *q.E2EMS)
		}
		return nil
	})
	if err != nil {
		return nil // the entries cannot be read: no deciding window to suggest
	}
	slices.Sort(d)
	p90, ok := stats.Percentile(d, 90, stats.NearestRank)
	if !ok {
		return nil
	}
	return new(2 * p90)
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
