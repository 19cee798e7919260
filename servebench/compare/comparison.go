package compare

import (
	"errors"
	"fmt"
	"math"

	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/servebench/report"
)

// ComparisonSchema names the version of the Comparison's JSON form.
const ComparisonSchema = "servebench.compare/v1"

// Verdict is the outcome of one comparison or of the whole family.
type Verdict string

// The verdicts.
const (
	// Regression: the whole interval lies beyond the tolerance, on the
	// worse side.
	Regression Verdict = "regression"
	// NoRegression: the whole interval lies within the tolerance.
	NoRegression Verdict = "no_regression"
	// Inconclusive: the interval straddles the tolerance.
	Inconclusive Verdict = "inconclusive"
	// Advisory: one round per side, so no estimate of run-to-run
	// variance; the comparison's leaning is reported, never a verdict.
	Advisory Verdict = "advisory"
	// InsufficientData: a percentile with fewer than five observations
	// beyond it, pooled over a side's rounds; no interval is given. It is
	// not a verdict: the whole comparison is then inconclusive at best
	// when the statistic decides.
	InsufficientData Verdict = "insufficient_data"
)

// Options declares a comparison.
type Options struct {
	// Confidence is the family-wise confidence (default 0.95): the chance
	// that an A/A comparison reports any regression is at most
	// 1 − Confidence.
	Confidence float64
	// Tolerances names the statistics to compare and how much worse each
	// may be; nil means DefaultTolerances.
	Tolerances []Tolerance
	// AllowDifferentWorkloads compares runs of different workloads (by
	// hash), SLOs or schedules (per round: schedule hash, request count,
	// arrival process, rate and seed) instead of refusing them; the
	// Comparison records every difference it allowed.
	AllowDifferentWorkloads bool
	// AllowInconclusive makes an inconclusive verdict exit 0 instead of 6.
	// It does not pass an advisory (one-round) result.
	AllowInconclusive bool
	// Decide names the statistics that make the verdict; each must be
	// compared. The others are compared and reported with the verdict
	// Informational, outside the family correction. Nil means
	// DefaultDecide with the default tolerances, and every named
	// statistic otherwise.
	Decide []string
	// Look, when set, makes this comparison one look of a
	// group-sequential procedure (see SequentialRule): its deciding
	// intervals spend only this look's share of 1 − Confidence, and the
	// statistics decided at earlier looks keep their verdicts.
	Look *Look
}

// Comparison is the verdict on a candidate against a baseline.
type Comparison struct {
	// Schema is ComparisonSchema.
	Schema string `json:"schema"`
	// Verdict is advisory with one round per side; otherwise regression if
	// any comparison says so, else inconclusive if any does, else
	// no_regression.
	Verdict Verdict `json:"verdict"`
	// AllowInconclusive records that an inconclusive verdict was allowed
	// to pass (exit 0).
	AllowInconclusive bool `json:"allow_inconclusive,omitempty"`
	// Confidence is the family-wise confidence.
	Confidence float64 `json:"confidence"`
	// IntervalLevel is the two-sided level of each deciding interval,
	// LowerBoundLevel + UpperBoundLevel − 1.
	IntervalLevel float64 `json:"interval_level"`
	// LowerBoundLevel is the one-sided level of each deciding interval's
	// lower end, the end that calls a regression: 1 − α/k, Bonferroni over
	// the k deciding statistics, α being 1 − Confidence, or this look's
	// share of it in a sequential procedure.
	LowerBoundLevel float64 `json:"lower_bound_level"`
	// UpperBoundLevel is the one-sided level of each deciding interval's
	// upper end, the end that calls no_regression: 1 − α, with no
	// correction over the statistics, since the whole verdict is
	// no_regression only when every deciding statistic is (Berger's
	// intersection–union test).
	UpperBoundLevel float64 `json:"upper_bound_level"`
	// Stopping says how a sequential A/B qualification ended; nil for
	// runs compared from disk.
	Stopping *Stopping `json:"stopping,omitempty"`
	// SameServer is set when both sides measured one server: an A/B of
	// one server measures only its noise.
	SameServer string `json:"same_server,omitempty"`
	// Method says where the intervals come from.
	Method string `json:"method"`
	// Family says how the comparisons are controlled together.
	Family string `json:"family"`
	// BlindToRunVariance is true with one round per side: the intervals
	// then reflect request-to-request noise only, and the verdict is
	// Advisory.
	BlindToRunVariance bool `json:"blind_to_run_variance"`
	// Valid is false when a run on either side did not deliver its load;
	// such a comparison is no evidence either way.
	Valid bool `json:"valid"`
	// InvalidRuns names the runs that were not valid load, and why.
	InvalidRuns []string `json:"invalid_runs,omitempty"`
	// Comparisons holds one entry per compared statistic.
	Comparisons []MetricComparison `json:"comparisons"`
	// Rounds counts the runs on each side.
	Rounds Rounds `json:"rounds"`
	// BaselineRuns and CandidateRuns identify every run, in round order.
	BaselineRuns  []RunRef `json:"baseline_runs"`
	CandidateRuns []RunRef `json:"candidate_runs"`
	// RunOrder lists the runs in the order they ran, with their positions,
	// when the comparison came from an A/B qualification (ab.Run); nil for
	// runs loaded from disk.
	RunOrder *RunOrder `json:"run_order,omitempty"`
	// Engines says whether each run measured a freshly started engine or
	// the engines were reused across rounds; empty when unknown (runs
	// loaded from disk). ab.Run sets one of ab's Engines values.
	Engines string `json:"engines,omitempty"`
	// AllowedDifferences lists every difference between the runs that
	// AllowDifferentWorkloads let through; the verdict rests on them.
	AllowedDifferences []string `json:"allowed_differences,omitempty"`
	// Notes records anything else the reader should know.
	Notes []string `json:"notes,omitempty"`

	baseline, candidate []*report.Report
	// defaultTolerances is set when no tolerance was named: a default one
	// below the measured noise is noted, not refused (see checkNoise).
	defaultTolerances bool
}

// Rounds counts the runs on each side.
type Rounds struct {
	Baseline  int `json:"baseline"`
	Candidate int `json:"candidate"`
}

// RunRef identifies one run.
type RunRef struct {
	RunID  string        `json:"run_id"`
	Valid  bool          `json:"valid"`
	Inputs report.Inputs `json:"inputs"`
}

// MetricComparison is one statistic compared. Change, CILow, CIHigh and
// Tolerance are fractions signed so that positive is worse: 0.05 is 5 %
// worse for a relative comparison and five points worse for an absolute one.
type MetricComparison struct {
	Name string `json:"name"`
	Kind Kind   `json:"kind"`
	// Baseline and Candidate are the statistic's mean over each side's
	// rounds (its value when there is one round).
	Baseline  float64 `json:"baseline"`
	Candidate float64 `json:"candidate"`
	// Unit is "ms", "rps" or "fraction".
	Unit      string  `json:"unit"`
	Change    float64 `json:"change"`
	CILow     float64 `json:"ci_low"`
	CIHigh    float64 `json:"ci_high"`
	Tolerance float64 `json:"tolerance"`
	Verdict   Verdict `json:"verdict"`
	// Leaning is what the interval says when the verdict is Advisory (one
	// round per side) or Informational (outside the deciding set):
	// regression, no_regression, inconclusive or insufficient_data, not a
	// verdict.
	Leaning Verdict `json:"leaning,omitempty"`
	// IntervalLevel is the two-sided level of this interval: the
	// family's for a deciding statistic, 1 − 2(1 − confidence) for an
	// informational one.
	IntervalLevel float64 `json:"interval_level"`
	// LowerBoundLevel and UpperBoundLevel are the one-sided levels of the
	// interval's ends: the family's for a deciding statistic, 1 −
	// (1 − confidence) each for an informational one.
	LowerBoundLevel float64 `json:"lower_bound_level"`
	UpperBoundLevel float64 `json:"upper_bound_level"`
	// Look is the look of a sequential procedure at which this
	// statistic was decided (0 outside one).
	Look int `json:"look,omitempty"`
	// Noise is the run-to-run standard deviation of one round's statistic,
	// pooled over both sides, on the Change scale (nil with one round per
	// side, where it cannot be measured).
	Noise *float64 `json:"noise,omitempty"`
	// MinDetectableEffect is the smallest change, on the Change scale,
	// that these rounds and this noise would have called a regression:
	// the tolerance plus the interval's half-width.
	MinDetectableEffect float64 `json:"min_detectable_effect"`
	// Unbounded names the side ("baseline", "candidate" or "both") on
	// which, in some round, failures reach beyond a latency percentile (a
	// failure counts as slower than any success) or nothing qualified (for
	// qualified_rps): that side's figure is +Inf (null in JSON) and the
	// verdict follows from it alone.
	Unbounded string `json:"unbounded,omitempty"`
	// SuccessOnly is a latency percentile over the successful requests
	// alone, beside the figure above, which counts failures at +Inf.
	SuccessOnly *SuccessOnly `json:"success_only,omitempty"`
	// Needed is, for insufficient_data, how many observations each side
	// needs, pooled over its rounds, for five to lie beyond the
	// percentile.
	Needed int `json:"needed,omitempty"`
	// Decide says, for an inconclusive comparison, roughly how much more
	// evidence would likely decide it.
	Decide string `json:"decide,omitempty"`
}

// SuccessOnly is a latency percentile computed over successful requests
// only: each side's mean over its rounds and the relative change. It is
// reported for reference; the verdict counts failures.
type SuccessOnly struct {
	Baseline  float64 `json:"baseline"`
	Candidate float64 `json:"candidate"`
	Change    float64 `json:"change"`
}

// Reports compares candidate runs against baseline runs, one report per
// round on each side (round K of each side is a pair). It errors on bad
// input: an empty side, one round on one side and several on the other, a
// statistic a report cannot give, a tolerance of zero or below the
// run-to-run noise measured in the rounds, or runs whose workload, SLO or
// per-round schedule differ unless allowed. Invalid runs do not error: the
// Comparison says so. With one round per side the verdict is Advisory.
func Reports(baseline, candidate []*report.Report, opts Options) (*Comparison, error) {
	var endpoint record.Endpoint
	if len(baseline) > 0 && baseline[0] != nil {
		endpoint = baseline[0].Endpoint
	}
	tols, err := checkOptions(&opts, endpoint)
	if err != nil {
		return nil, err
	}
	nb, nc := len(baseline), len(candidate)
	switch {
	case nb == 0 || nc == 0:
		return nil, fmt.Errorf("compare: the baseline has %d runs and the candidate %d; each side needs at least one", nb, nc)
	case (nb == 1) != (nc == 1):
		return nil, fmt.Errorf("compare: the baseline has %d rounds and the candidate %d: give both sides one round, or both two or more", nb, nc)
	}
	for i, r := range append(append([]*report.Report{}, baseline...), candidate...) {
		if r == nil {
			return nil, fmt.Errorf("compare: report %d is nil", i+1)
		}
	}
	c := &Comparison{
		Schema: ComparisonSchema, Confidence: opts.Confidence, Valid: true, AllowInconclusive: opts.AllowInconclusive,
		Rounds:   Rounds{Baseline: nb, Candidate: nc},
		baseline: baseline, candidate: candidate, defaultTolerances: opts.Tolerances == nil,
	}
	if err := c.checkMatchingRuns(opts.AllowDifferentWorkloads); err != nil {
		return nil, err
	}
	c.BaselineRuns, c.CandidateRuns = c.refs("baseline", baseline), c.refs("candidate", candidate)
	deciding, err := decidingSet(opts, tols)
	if err != nil {
		return nil, fmt.Errorf("compare: %w", err)
	}
	alpha := 1 - c.Confidence
	if opts.Look != nil {
		alpha = opts.Look.alphaAt(alpha, min(nb, nc))
	}
	c.describeMethod(len(deciding), len(tols), alpha, opts.Look)
	if n := offered(baseline); n > 0 && succeeded(baseline) == 0 {
		c.Valid, c.Verdict = false, Inconclusive
		c.InvalidRuns = append(c.InvalidRuns, fmt.Sprintf("baseline: every one of its %d offered requests failed: a baseline that served nothing cannot be evidence", n))
		return c, nil
	}
	for _, t := range tols {
		mc, err := c.compareNamed(t, deciding[t.Name], opts.Look)
		if err != nil {
			return nil, err
		}
		c.Comparisons = append(c.Comparisons, mc)
	}
	c.Verdict = c.overallVerdict()
	return c, nil
}

// checkOptions fills the defaults in and returns the tolerances to compare:
// by default those of the statistics the baseline's endpoint defines.
func checkOptions(opts *Options, endpoint record.Endpoint) ([]Tolerance, error) {
	if opts.Confidence == 0 {
		opts.Confidence = 0.95
	}
	if !(opts.Confidence > 0 && opts.Confidence < 1) {
		return nil, fmt.Errorf("compare: confidence %v is outside (0, 1)", opts.Confidence)
	}
	tols := opts.Tolerances
	if tols == nil {
		tols = definedTolerances(DefaultTolerances(), endpoint)
	}
	if len(tols) == 0 {
		return nil, errors.New("compare: no statistic to compare")
	}
	for _, t := range tols {
		if !(t.Value > 0) || math.IsInf(t.Value, 0) {
			return nil, fmt.Errorf("compare: tolerance %v on %s: want a positive, finite tolerance (with 0 any measurable slowdown is a regression)", t.Value, t.Name)
		}
	}
	return tols, nil
}

// compareNamed compares one named statistic: a deciding one at the
// family's level (or with the verdict an earlier look gave it), an
// informational one at the unadjusted level.
func (c *Comparison) compareNamed(t Tolerance, deciding bool, look *Look) (MetricComparison, error) {
	if m, ok := look.decidedEarlier(t.Name); ok && deciding {
		return m, nil
	}
	s, err := statisticFor(t.Name)
	if err != nil {
		return MetricComparison{}, fmt.Errorf("compare: %w", err)
	}
	lv := bounds{lower: c.LowerBoundLevel, upper: c.UpperBoundLevel}
	if !deciding {
		one := math.Max(c.Confidence, 0.75)
		lv = bounds{lower: one, upper: one}
	}
	mc, err := c.compareOne(s, t.Value, lv)
	if err != nil {
		return mc, fmt.Errorf("compare: %w", err)
	}
	mc.IntervalLevel, mc.LowerBoundLevel, mc.UpperBoundLevel = lv.twoSided(), lv.lower, lv.upper
	switch {
	case c.BlindToRunVariance:
		mc.Leaning, mc.Verdict = mc.Verdict, Advisory
	case !deciding:
		mc.Leaning, mc.Verdict = mc.Verdict, Informational
	case look != nil && (mc.Verdict == Regression || mc.Verdict == NoRegression):
		mc.Look = look.Number
	}
	return mc, nil
}

// describeMethod sets the interval level, the family and the method for k
// deciding comparisons that spend alpha.
func (c *Comparison) describeMethod(k, total int, alpha float64, look *Look) {
	nb, nc := c.Rounds.Baseline, c.Rounds.Candidate
	c.LowerBoundLevel, c.UpperBoundLevel = 1-alpha/float64(k), 1-alpha
	c.IntervalLevel = c.LowerBoundLevel + c.UpperBoundLevel - 1
	c.Family = fmt.Sprintf("Bonferroni over the %d deciding %s for the lower ends: each is a one-sided bound at %.4g%%, and a regression needs one beyond its tolerance, so an A/A comparison reports any regression with probability at most %.4g; each upper end is a one-sided bound at %.4g%%, and no_regression needs every one within its tolerance (an intersection–union test), so a candidate worse than a tolerance is called no_regression with probability at most %.4g",
		k, plural(k, "comparison", "comparisons"), 100*c.LowerBoundLevel, alpha, 100*c.UpperBoundLevel, alpha)
	if look != nil {
		c.Family += fmt.Sprintf(" at this look (look %d; %s has spent %.4g of the procedure's %.4g by %d of at most %d rounds a side)",
			look.Number, SequentialRule, SpentAlpha(1-c.Confidence, float64(min(nb, nc))/float64(look.MaxRounds)), 1-c.Confidence, min(nb, nc), look.MaxRounds)
	}
	if total > k {
		c.Family += fmt.Sprintf("; the %d informational statistics are outside the family, each at the unadjusted level", total-k)
	}
	switch {
	case nb == 1:
		c.BlindToRunVariance = true
		c.Family += " only if runs did not vary from one to the next, which one round per side cannot check: the result is advisory"
		c.Method = "request-level intervals from one round per side (blind to run-to-run variance): seeded bootstrap of the percentile, Newcombe's score interval for attainment and error rate, Poisson counts for qualified_rps"
	case nb == nc:
		c.Method = fmt.Sprintf("Hartung–Knapp random-effects interval on the per-round differences over %d rounds (log ratios for relative comparisons): each round weighs 1/(its own sampling variance, from its requests' order statistics, + the between-round variance, DerSimonian–Laird), Student's t on rounds − 1 degrees of freedom, the variance never below what the pooled requests allow; where a round gives no sampling variance (pooled gaps; a tail percentile whose order-statistic ranks pass the round's requests), the paired t-interval", nb)
	default:
		c.Method = fmt.Sprintf("Welch t-interval between the rounds of each side (%d baseline, %d candidate; log values for relative comparisons)", nb, nc)
	}
	if nb > 1 {
		c.Method += "; attainment and error rate by score intervals on the pooled requests, each end the wider of Miettinen–Nurminen's binomial bound (normal quantile) and the quasi-binomial score bound (each side's variance times its rounds' dispersion, Pearson χ²/(rounds − 1), Student's t)"
	}
	c.Method += "; latency percentiles count each failed request as slower than any success (the success-only figure is given beside)"
}

// overallVerdict is Advisory with one round per side; otherwise regression
// if any comparison says so, else inconclusive if any does, else
// no_regression.
func (c *Comparison) overallVerdict() Verdict {
	if c.BlindToRunVariance {
		return Advisory
	}
	if offered(c.candidate) > 0 && succeeded(c.candidate) == 0 {
		// Every candidate request failed, where the baseline served.
		return Regression
	}
	v := NoRegression
	for _, m := range c.Comparisons {
		switch {
		case m.Verdict == Regression:
			return Regression
		case m.Verdict == Informational:
		case m.Verdict != NoRegression:
			v = Inconclusive
		}
	}
	return v
}

// ExitCode is the process exit code for the comparison: 2 when a run is not
// valid load (it wins over every verdict), 5 on a regression, 6 when
// inconclusive (0 instead when inconclusive results were allowed) or
// advisory (one round per side: always 6), else 0.
func (c *Comparison) ExitCode() int {
	switch {
	case !c.Valid:
		return 2
	case c.Verdict == Regression:
		return 5
	case c.Verdict == Advisory:
		return 6
	case c.Verdict == Inconclusive && !c.AllowInconclusive:
		return 6
	}
	return 0
}

// Regressed returns the comparisons whose verdict is regression.
func (c *Comparison) Regressed() []MetricComparison {
	var out []MetricComparison
	for _, m := range c.Comparisons {
		if m.Verdict == Regression {
			out = append(out, m)
		}
	}
	return out
}

// refs identifies each run and records the invalid ones.
func (c *Comparison) refs(side string, reports []*report.Report) []RunRef {
	out := make([]RunRef, len(reports))
	for i, r := range reports {
		id := ""
		if r.Experiment != nil {
			id = r.Experiment.RunID
		}
		out[i] = RunRef{RunID: id, Valid: r.Valid, Inputs: r.Inputs}
		if !r.Valid {
			c.Valid = false
			c.InvalidRuns = append(c.InvalidRuns, fmt.Sprintf("%s round %d (%s): %v", side, i+1, id, r.InvalidReasons))
		}
	}
	return out
}

// offered counts the requests offered over a side's rounds.
func offered(reports []*report.Report) int {
	n := 0
	for _, r := range reports {
		n += r.Offered
	}
	return n
}

// succeeded counts the protocol successes over a side's rounds.
func succeeded(reports []*report.Report) int {
	n := 0
	for _, r := range reports {
		n += r.ProtocolSuccesses
	}
	return n
}

// finite reports whether every value is a finite number.
func finite(xs ...float64) bool {
	for _, x := range xs {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return false
		}
	}
	return true
}
