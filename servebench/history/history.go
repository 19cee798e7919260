package history

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/stat"
	"gonum.org/v1/gonum/stat/distuv"

	"github.com/servebench/servebench/servebench/compare"
)

// Schema names the version of the History's JSON form.
const Schema = "servebench.history/v1"

// Release is one release's figures.
type Release struct {
	// Name is the release's name: its directory's base name.
	Name string `json:"name"`
	// Path is where its run or comparison was read from.
	Path string `json:"path"`
	// RunID is the run's (or the candidate's first run's) UUIDv7, which
	// orders releases by time.
	RunID string `json:"run_id,omitempty"`
	// Values holds each metric's figure; a metric the run cannot give is
	// absent.
	Values map[string]float64 `json:"values"`
}

// Options declares a history analysis.
type Options struct {
	// FalseAlarm is each split's permutation-test level: the chance of
	// reporting a change in a series without one (default 0.05).
	FalseAlarm float64
	// Confidence is the two-sided level of each change's interval
	// (default 0.95).
	Confidence float64
	// Seed seeds the permutation tests (default 1), so an analysis
	// repeats exactly.
	Seed uint64
	// Policy is the rule that judges the newest release (default
	// PolicyChangepoint); both analyses are made either way.
	Policy Policy
	// Window and Ratio are the ratio policy's (default DefaultWindow and
	// DefaultRatio): a window of at least 1, a ratio in (1, 2).
	Window int
	Ratio  float64
	// Tolerances are the changepoint policy's, named as for compare
	// (default compare.DefaultTolerances()).
	Tolerances []compare.Tolerance
}

// History is the analysis of a series of releases.
type History struct {
	Schema string `json:"schema"`
	// Method states how changes were found, with the false-alarm rate.
	Method     string  `json:"method"`
	FalseAlarm float64 `json:"false_alarm"`
	Confidence float64 `json:"confidence"`
	// MinReleases is the shortest series in which a change can be
	// declared at FalseAlarm (see MinReleases; 0: none can). With fewer
	// releases no series is tested and none has a change (TooShort).
	MinReleases int       `json:"min_releases"`
	Releases    []Release `json:"releases"`
	// Metrics holds one series per metric that every release gives, in
	// Metrics() order.
	Metrics []Series `json:"metrics"`
	// Policy is the rule that judged the newest release; Ratio is the
	// ratio policy's analysis (made whichever policy judges); Verdict is
	// the newest release's judgment under Policy.
	Policy  Policy         `json:"policy"`
	Ratio   *RatioAnalysis `json:"ratio"`
	Verdict Verdict        `json:"verdict"`
	// Tolerances are the changepoint policy's, by metric: a change at the
	// newest release beyond its metric's tolerance is a regression.
	Tolerances map[string]float64 `json:"tolerances"`
}

// Series is one metric over the releases, and where its level shifted.
type Series struct {
	Metric string `json:"metric"`
	// Relative is true for latency and throughput (changes are ratios),
	// false for fractions (changes are points).
	Relative bool      `json:"relative"`
	Values   []float64 `json:"values"`
	Changes  []Change  `json:"changes"`
}

// Change is one shift of a metric's level.
type Change struct {
	// Release is the first release at the new level, and Index its
	// position from 0.
	Release string `json:"release"`
	Index   int    `json:"index"`
	// Before and After are the mean levels of the segments on each side
	// (geometric means for latency).
	Before float64 `json:"before"`
	After  float64 `json:"after"`
	// Size is the shift, signed so that positive is worse: After/Before −
	// 1 for latency, Before/After − 1 for a throughput (as compare), After − Before for
	// the error rate, Before − After for attainment. CILow and CIHigh bound it (Welch's t-interval
	// between the segments); both are null when each segment holds one
	// release.
	Size   float64  `json:"size"`
	CILow  *float64 `json:"ci_low"`
	CIHigh *float64 `json:"ci_high"`
	// P is the permutation test's p-value.
	P float64 `json:"p"`
}

// Analyze finds the changes in every metric the releases all give.
func Analyze(releases []Release, opts Options) (*History, error) {
	if len(releases) < 2 {
		return nil, fmt.Errorf("history: %d releases; need at least two to find a change", len(releases))
	}
	if opts.FalseAlarm == 0 {
		opts.FalseAlarm = 0.05
	}
	if opts.Confidence == 0 {
		opts.Confidence = 0.95
	}
	if !(opts.FalseAlarm > 0 && opts.FalseAlarm < 1) || !(opts.Confidence > 0 && opts.Confidence < 1) {
		return nil, errors.New("history: the false-alarm rate and the confidence must lie in (0, 1)")
	}
	if opts.Seed == 0 {
		opts.Seed = 1
	}
	if err := opts.ratioDefaults(); err != nil {
		return nil, err
	}
	h := &History{Schema: Schema, FalseAlarm: opts.FalseAlarm, Confidence: opts.Confidence, Releases: releases, Policy: opts.Policy,
		MinReleases: MinReleases(opts.FalseAlarm),
		Method: fmt.Sprintf("e-divisive means (exponent 1) with binary segmentation; each split kept when a permutation test (%d shuffles) gives p ≤ %g, the false-alarm rate per tested split; latency on the log scale; each change's interval is Welch's t at %g%% between its two segments",
			permutations, opts.FalseAlarm, 100*opts.Confidence)}
	for _, m := range Metrics() {
		values, ok := seriesOf(m, releases)
		if !ok {
			continue
		}
		s := Series{Metric: m, Relative: relative(m), Values: values}
		if h.TooShort() {
			h.Metrics = append(h.Metrics, s)
			continue
		}
		x := workingScale(s)
		rng := rand.New(rand.NewPCG(opts.Seed, 0x4e15_7023))
		cps := changePoints(x, 0, len(x), opts.FalseAlarm, rng)
		for i, cp := range cps {
			lo, hi := 0, len(x)
			if i > 0 {
				lo = cps[i-1].at
			}
			if i+1 < len(cps) {
				hi = cps[i+1].at
			}
			s.Changes = append(s.Changes, change(s, x[lo:cp.at], x[cp.at:hi], releases[cp.at].Name, cp, opts.Confidence))
		}
		h.Metrics = append(h.Metrics, s)
	}
	if len(h.Metrics) == 0 {
		return nil, errors.New("history: no metric is given by every release")
	}
	h.Ratio = analyzeRatio(h, opts.Window, opts.Ratio)
	tols := opts.Tolerances
	if len(tols) == 0 {
		tols = compare.DefaultTolerances()
	}
	h.Tolerances = map[string]float64{}
	for _, t := range tols {
		h.Tolerances[t.Name] = t.Value
	}
	h.Verdict = h.Judge(opts.Policy, tols)
	return h, nil
}

// ratioDefaults fills in the policy and the ratio policy's defaults, and
// refuses a window below 1 or a ratio outside (1, 2).
func (o *Options) ratioDefaults() error {
	if o.Policy == "" {
		o.Policy = PolicyChangepoint
	}
	if _, err := ParsePolicy(string(o.Policy)); err != nil {
		return fmt.Errorf("history: %w", err)
	}
	if o.Window == 0 {
		o.Window = DefaultWindow
	}
	if o.Ratio == 0 {
		o.Ratio = DefaultRatio
	}
	if o.Window < 1 {
		return fmt.Errorf("history: window %d: want at least 1 release before the one judged", o.Window)
	}
	if !(o.Ratio > 1 && o.Ratio < 2) {
		return fmt.Errorf("history: ratio %g: want a number in (1, 2), such as 1.2 (latency above 1.2 × baseline, throughput below 0.8 ×)", o.Ratio)
	}
	return nil
}

// TooShort reports whether the series are too short for the test to
// declare any change at the false-alarm rate: their "no change" would
// say nothing.
func (h *History) TooShort() bool {
	return h.MinReleases == 0 || len(h.Releases) < h.MinReleases
}

// ShortNotice says why no change can be shown and how many releases are
// needed; "" when the series are long enough.
func (h *History) ShortNotice() string {
	switch {
	case !h.TooShort():
		return ""
	case h.MinReleases == 0:
		return fmt.Sprintf("no change can be shown at a false-alarm rate of %g: the permutation test's %d shuffles give no p-value below %g; raise the false-alarm rate",
			h.FalseAlarm, permutations, 1.0/(1+permutations))
	}
	return fmt.Sprintf("no change can be shown in %d releases at a false-alarm rate of %g: the permutation test needs at least %d releases to declare one",
		len(h.Releases), h.FalseAlarm, h.MinReleases)
}

// Metrics are the metrics a history follows.
func Metrics() []string {
	return []string{"attainment", "error_rate", "ttft_p50", "ttft_p99", "tpot_p50", "tpot_p99", "e2e_p50", "e2e_p99",
		QualifiedRPS, OutputTokensPerSecond}
}

// The throughput metrics: the qualified request rate (qualified requests
// over the horizon) and the output tokens per second of the successful
// requests.
const (
	QualifiedRPS          = "qualified_rps"
	OutputTokensPerSecond = "output_tokens_per_second"
)

// relative reports whether a metric changes by ratios (latency and
// throughput).
func relative(m string) bool { return m != "attainment" && m != "error_rate" }

// throughput reports whether a metric is a rate, for which less is worse.
func throughput(m string) bool { return m == QualifiedRPS || m == OutputTokensPerSecond }

// seriesOf is a metric's values over the releases, if every one gives it
// (and, for latency, a positive one).
func seriesOf(m string, releases []Release) ([]float64, bool) {
	out := make([]float64, len(releases))
	for i, r := range releases {
		v, ok := r.Values[m]
		if !ok || math.IsNaN(v) || math.IsInf(v, 0) || (relative(m) && !(v > 0)) {
			return nil, false
		}
		out[i] = v
	}
	return out, true
}

// workingScale is the series as it is split: log values for latency.
func workingScale(s Series) []float64 {
	x := append([]float64(nil), s.Values...)
	if s.Relative {
		for i := range x {
			x[i] = math.Log(x[i])
		}
	}
	return x
}

// change describes the shift between segments a and b (working scale).
func change(s Series, a, b []float64, release string, cp split, confidence float64) Change {
	ma, mb := stat.Mean(a, nil), stat.Mean(b, nil)
	c := Change{Release: release, Index: cp.at, P: cp.p}
	d := mb - ma // on the working scale; worse is up, except attainment
	sign := 1.0
	if s.Metric == "attainment" {
		sign = -1
	}
	lo, hi, ok := welch(a, b, confidence)
	if s.Relative {
		c.Before, c.After, c.Size = math.Exp(ma), math.Exp(mb), math.Expm1(d)
		l, h := math.Expm1(lo), math.Expm1(hi)
		if throughput(s.Metric) {
			c.Size, l, h = math.Expm1(-d), math.Expm1(-hi), math.Expm1(-lo)
		}
		if ok {
			c.CILow, c.CIHigh = &l, &h
		}
		return c
	}
	c.Before, c.After, c.Size = ma, mb, sign*d
	if ok {
		l, h := sign*lo, sign*hi
		if sign < 0 {
			l, h = h, l
		}
		c.CILow, c.CIHigh = &l, &h
	}
	return c
}

// welch is Welch's two-sided t-interval of mean(b) − mean(a); a segment of
// one value borrows the other's variance. ok is false when both hold one
// value.
func welch(a, b []float64, confidence float64) (lo, hi float64, ok bool) {
	na, nb := float64(len(a)), float64(len(b))
	if na < 2 && nb < 2 {
		return 0, 0, false
	}
	va, vb := variance(a), variance(b)
	switch {
	case na < 2:
		va = vb
	case nb < 2:
		vb = va
	}
	sa, sb := va/na, vb/nb
	se2 := sa + sb
	d := stat.Mean(b, nil) - stat.Mean(a, nil)
	if se2 == 0 {
		return d, d, true
	}
	df := se2 * se2 / (sa*sa/math.Max(na-1, 1) + sb*sb/math.Max(nb-1, 1))
	t := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: df}.Quantile(1 - (1-confidence)/2)
	half := t * math.Sqrt(se2)
	return d - half, d + half, true
}

// variance is the sample variance; 0 for one value.
func variance(xs []float64) float64 {
	if len(xs) < 2 {
		return 0
	}
	return stat.Variance(xs, nil)
}

// expOf is e^v.
func expOf(v float64) float64 { return math.Exp(v) }

// finite reports whether v is a finite number.
func finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }
