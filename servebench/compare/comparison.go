package compare

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"

	"github.com/servebench/servebench/servebench"
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
	// hash) or different SLOs instead of refusing them.
	AllowDifferentWorkloads bool
}

// Comparison is the verdict on a candidate against a baseline.
type Comparison struct {
	// Schema is ComparisonSchema.
	Schema string `json:"schema"`
	// Verdict is regression if any comparison says so, else inconclusive
	// if any does, else no_regression.
	Verdict Verdict `json:"verdict"`
	// Confidence is the family-wise confidence.
	Confidence float64 `json:"confidence"`
	// IntervalLevel is the two-sided level of each interval after the
	// Bonferroni correction: 1 − 2(1 − Confidence)/k.
	IntervalLevel float64 `json:"interval_level"`
	// Method says where the intervals come from.
	Method string `json:"method"`
	// Family says how the comparisons are controlled together.
	Family string `json:"family"`
	// BlindToRunVariance is true with one round per side: the intervals
	// then reflect request-to-request noise only.
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
	// Notes records anything the reader should know (different workloads
	// allowed, unpaired schedules).
	Notes []string `json:"notes,omitempty"`

	baseline, candidate []*servebench.Report
}

// Rounds counts the runs on each side.
type Rounds struct {
	Baseline  int `json:"baseline"`
	Candidate int `json:"candidate"`
}

// RunRef identifies one run.
type RunRef struct {
	RunID  string            `json:"run_id"`
	Valid  bool              `json:"valid"`
	Inputs servebench.Inputs `json:"inputs"`
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
	// Decide says, for an inconclusive comparison, roughly how much more
	// evidence would likely decide it.
	Decide string `json:"decide,omitempty"`
}

// Reports compares candidate runs against baseline runs, one report per
// round on each side (round K of each side is a pair). It errors on bad
// input: an empty side, one round on one side and several on the other, a
// statistic a report cannot give, or runs of different workloads or SLOs
// unless allowed. Invalid runs do not error: the Comparison says so.
func Reports(baseline, candidate []*servebench.Report, opts Options) (*Comparison, error) {
	if opts.Confidence == 0 {
		opts.Confidence = 0.95
	}
	if !(opts.Confidence > 0 && opts.Confidence < 1) {
		return nil, fmt.Errorf("compare: confidence %v is outside (0, 1)", opts.Confidence)
	}
	tols := opts.Tolerances
	if tols == nil {
		tols = DefaultTolerances()
		if len(baseline) > 0 && baseline[0] != nil {
			tols = definedTolerances(tols, baseline[0].Endpoint)
		}
	}
	if len(tols) == 0 {
		return nil, errors.New("compare: no statistic to compare")
	}
	nb, nc := len(baseline), len(candidate)
	switch {
	case nb == 0 || nc == 0:
		return nil, fmt.Errorf("compare: the baseline has %d runs and the candidate %d; each side needs at least one", nb, nc)
	case (nb == 1) != (nc == 1):
		return nil, fmt.Errorf("compare: the baseline has %d rounds and the candidate %d: give both sides one round, or both two or more", nb, nc)
	}
	for i, r := range append(append([]*servebench.Report{}, baseline...), candidate...) {
		if r == nil {
			return nil, fmt.Errorf("compare: report %d is nil", i+1)
		}
	}
	c := &Comparison{
		Schema: ComparisonSchema, Confidence: opts.Confidence, Valid: true,
		Rounds:   Rounds{Baseline: nb, Candidate: nc},
		baseline: baseline, candidate: candidate,
	}
	if err := c.checkSameWorkload(opts.AllowDifferentWorkloads); err != nil {
		return nil, err
	}
	c.BaselineRuns, c.CandidateRuns = c.refs("baseline", baseline), c.refs("candidate", candidate)
	k := float64(len(tols))
	c.IntervalLevel = 1 - 2*(1-opts.Confidence)/k
	c.Family = fmt.Sprintf("Bonferroni over %d comparisons: each interval is two-sided at %.4g%%, so each end is a one-sided bound at %.4g%%; a regression needs the lower end beyond the tolerance, so an A/A comparison reports any regression with probability at most %.4g",
		len(tols), 100*c.IntervalLevel, 100*(1-(1-opts.Confidence)/k), 1-opts.Confidence)
	switch {
	case nb == 1:
		c.BlindToRunVariance = true
		c.Method = "request-level intervals from one round per side (blind to run-to-run variance): seeded bootstrap of the nearest-rank percentile, Newcombe's score interval for attainment and error rate, Poisson counts for qualified_rps"
	case nb == nc:
		c.Method = fmt.Sprintf("paired t-interval on the per-round differences over %d rounds (log ratios for relative comparisons)", nb)
	default:
		c.Method = fmt.Sprintf("Welch t-interval between the rounds of each side (%d baseline, %d candidate; log values for relative comparisons)", nb, nc)
	}
	c.Verdict = NoRegression
	for _, t := range tols {
		s, err := statisticFor(t.Name)
		if err != nil {
			return nil, fmt.Errorf("compare: %w", err)
		}
		mc, err := c.compareOne(s, t.Value)
		if err != nil {
			return nil, fmt.Errorf("compare: %w", err)
		}
		c.Comparisons = append(c.Comparisons, mc)
		switch {
		case mc.Verdict == Regression:
			c.Verdict = Regression
		case mc.Verdict == Inconclusive && c.Verdict == NoRegression:
			c.Verdict = Inconclusive
		}
	}
	return c, nil
}

// ExitCode is the process exit code for the comparison: 2 when a run is not
// valid load (it wins over every verdict), 5 on a regression, 6 when
// inconclusive under strict, else 0.
func (c *Comparison) ExitCode(strict bool) int {
	switch {
	case !c.Valid:
		return 2
	case c.Verdict == Regression:
		return 5
	case c.Verdict == Inconclusive && strict:
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
func (c *Comparison) refs(side string, reports []*servebench.Report) []RunRef {
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

// checkSameWorkload refuses runs of different workloads or SLOs, unless
// allowed, and notes rounds whose two sides ran different arrival
// processes or seeds.
func (c *Comparison) checkSameWorkload(allow bool) error {
	first := c.baseline[0]
	sloOf := func(r *servebench.Report) string {
		b, _ := json.Marshal(r.SLO)
		return string(b)
	}
	check := func(side string, i int, r *servebench.Report) error {
		var problem string
		switch {
		case r.Inputs.WorkloadSHA256 != first.Inputs.WorkloadSHA256:
			problem = fmt.Sprintf("workload %.12s differs from the first baseline run's %.12s", r.Inputs.WorkloadSHA256, first.Inputs.WorkloadSHA256)
		case sloOf(r) != sloOf(first):
			problem = fmt.Sprintf("SLO %s differs from the first baseline run's %s", sloOf(r), sloOf(first))
		default:
			return nil
		}
		msg := fmt.Sprintf("%s round %d: %s", side, i+1, problem)
		if !allow {
			return fmt.Errorf("compare: %s (pass --allow-different-workloads to compare anyway)", msg)
		}
		c.Notes = append(c.Notes, "allowed: "+msg)
		return nil
	}
	for i, r := range c.baseline {
		if err := check("baseline", i, r); err != nil {
			return err
		}
	}
	for i, r := range c.candidate {
		if err := check("candidate", i, r); err != nil {
			return err
		}
		if i < len(c.baseline) && r.Experiment != nil && c.baseline[i].Experiment != nil {
			b, _ := json.Marshal(c.baseline[i].Experiment.Arrival)
			s, _ := json.Marshal(r.Experiment.Arrival)
			if string(b) != string(s) {
				c.Notes = append(c.Notes, fmt.Sprintf("round %d: the two sides ran different arrivals (%s, %s), so the round is not a like-for-like pair", i+1, b, s))
			}
		}
	}
	return nil
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
