package score

import (
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/servebench/report"
	"github.com/servebench/servebench/servebench/schedule"
	"github.com/servebench/servebench/servebench/stats"
)

// Options declares how a run is scored. The zero value scores with no
// latency objective, the schedule's window and lag tolerance, 95% Wilson
// confidence and nearest-rank percentiles.
type Options struct {
	// SLO declares the latency properties a request must have to qualify.
	// For the normalized trace format (and for a run directory's recorded
	// SLO) an SLO with any bound here replaces the input's own; with no
	// bound the input's own applies.
	SLO report.SLO
	// WindowMS is the half-open arrival window [start, end) of the cohort;
	// nil takes it from the schedule or the trace.
	WindowMS *[2]float64
	// LagToleranceMS is the schedule-lag tolerance; nil takes the
	// schedule's (or the trace's), and 20 ms when that is not declared.
	LagToleranceMS *float64
	// Confidence is the Wilson bound's confidence level in (0, 1); 0 means
	// 0.95.
	Confidence float64
	// PercentileMethod is stats.NearestRank (the default when empty) or
	// stats.Linear.
	PercentileMethod stats.PercentileMethod
	// Fluidity, when set, adds Etalon-style deadline fluidity to the report.
	Fluidity *FluidityRule
	// DriftInterval is the interval of the report's drift analysis; 0
	// means DefaultDriftInterval, and a negative value leaves the analysis
	// out.
	DriftInterval time.Duration
	// Endpoint is the API the records came from: the report gives only
	// the metrics and rates it declares (see API), and an objective on a
	// metric it does not define is refused. Empty scores every metric (a
	// text-generating API).
	Endpoint record.Endpoint
	// Percentiles are further percentile levels, in (0, 100), to compute
	// for every distribution beside p50, p90, p95, p99 and the maximum, so
	// that a report scored in a streamed pass or read back from JSON
	// answers them (report.Distribution.Extra). A contract passes the
	// levels its objectives name.
	Percentiles []float64
	// CriticalObjectives, when set, are the objective values
	// (record.Outcome.Objective) that must not be shed while another
	// objective is admitted: the report gains its shed-order check
	// (report.ShedOrder).
	CriticalObjectives []string
}

// scoreSetup is Options resolved against a schedule or trace.
type scoreSetup struct {
	window     [2]float64
	tolerance  float64
	slo        report.SLO
	confidence float64
	method     stats.PercentileMethod
	fluidity   *FluidityRule
	// driftMS is the drift interval in ms; 0 leaves drift out.
	driftMS float64
	// api declares what the records' API defines; nil for every metric.
	api *record.API
	// levels are Options.Percentiles, sorted, without the fixed ones.
	levels []float64
	// critical are Options.CriticalObjectives.
	critical []string
}

// resolveScoreSetup applies defaults and checks every option. window and
// tolerance are the schedule's (or trace's) declarations; tolerance <= 0
// means not declared.
func resolveScoreSetup(opts Options, window [2]float64, tolerance float64) (scoreSetup, error) {
	set := scoreSetup{window: window, tolerance: tolerance, slo: opts.SLO,
		confidence: opts.Confidence, method: opts.PercentileMethod, fluidity: opts.Fluidity, critical: opts.CriticalObjectives}
	if err := set.resolveWindow(opts); err != nil {
		return set, err
	}
	if err := set.resolveStatistics(opts); err != nil {
		return set, err
	}
	if err := checkSLOBounds(set.slo); err != nil {
		return set, err
	}
	if err := set.resolveAPI(opts.Endpoint); err != nil {
		return set, err
	}
	if err := checkFluidityRule(set.fluidity); err != nil {
		return set, err
	}
	levels, err := extraLevels(opts.Percentiles)
	set.levels = levels
	return set, err
}

// extraLevels checks the asked-for percentile levels and drops the ones
// every distribution holds anyway.
func extraLevels(ps []float64) ([]float64, error) {
	var out []float64
	for _, p := range ps {
		if !(p > 0 && p < 100) {
			return nil, fmt.Errorf("score options: percentile %v: want a level in (0, 100) (the maximum is always reported)", p)
		}
		if p == 50 || p == 90 || p == 95 || p == 99 || slices.Contains(out, p) {
			continue
		}
		out = append(out, p)
	}
	slices.Sort(out)
	return out, nil
}

// resolveWindow applies the options' window and lag tolerance over the
// declared ones, defaulting an undeclared tolerance, and checks both.
func (set *scoreSetup) resolveWindow(opts Options) error {
	if opts.WindowMS != nil {
		set.window = *opts.WindowMS
	}
	if opts.LagToleranceMS != nil {
		set.tolerance = *opts.LagToleranceMS
		if !scoreFinite(set.tolerance) || set.tolerance < 0 {
			return fmt.Errorf("score options: lag tolerance %v ms: want a finite value >= 0", set.tolerance)
		}
	} else if !(set.tolerance > 0) {
		set.tolerance = record.Millis(schedule.DefaultLagTolerance)
	}
	if w := set.window; !scoreFinite(w[0]) || !scoreFinite(w[1]) || w[0] < 0 || w[1] <= w[0] {
		return fmt.Errorf("score options: window [%v, %v) ms: want 0 <= start < end", w[0], w[1])
	}
	if w := set.window; msBetween(w[0], w[1]) < 0.001 || w[1] > record.MaxTimeMS {
		return fmt.Errorf("score options: window [%v, %v) ms: want at least 0.001 ms long (the records' 1 µs resolution), ending by %s", w[0], w[1], record.MaxTimeText)
	}
	return nil
}

// resolveStatistics defaults and checks the confidence level, the drift
// interval and the percentile method.
func (set *scoreSetup) resolveStatistics(opts Options) error {
	if set.confidence == 0 {
		set.confidence = 0.95
	}
	switch {
	case opts.DriftInterval == 0:
		set.driftMS = record.Millis(DefaultDriftInterval)
	case opts.DriftInterval > 0 && opts.DriftInterval < time.Millisecond:
		return fmt.Errorf("score options: drift interval %v: want at least 1ms", opts.DriftInterval)
	case opts.DriftInterval > 0:
		set.driftMS = record.Millis(opts.DriftInterval)
	}
	if !(set.confidence > 0 && set.confidence < 1) {
		return fmt.Errorf("score options: confidence %v: want a value in (0, 1)", set.confidence)
	}
	if set.method == "" {
		set.method = stats.NearestRank
	}
	if !set.method.Valid() {
		return fmt.Errorf("score options: percentile method %q: want %q or %q", set.method, stats.NearestRank, stats.Linear)
	}
	return nil
}

// checkSLOBounds refuses a negative SLO bound, or a positive one below the
// records' 1 µs resolution.
func checkSLOBounds(slo report.SLO) error {
	if slo.TTFT < 0 || slo.TPOT < 0 || slo.E2E < 0 {
		return fmt.Errorf("score options: SLO bounds must not be negative (ttft %v, tpot %v, e2e %v)", slo.TTFT, slo.TPOT, slo.E2E)
	}
	for _, b := range []struct {
		name  string
		bound time.Duration
	}{{"ttft", slo.TTFT}, {"tpot", slo.TPOT}, {"e2e", slo.E2E}} {
		// A shorter bound would round to 0 ms, which means "not declared".
		if b.bound > 0 && b.bound < time.Microsecond {
			return fmt.Errorf("score options: SLO %s bound %v is below the records' 1 µs resolution", b.name, b.bound)
		}
	}
	return nil
}

// checkFluidityRule refuses a fluidity rule (when one is set) whose
// first-token deadline or cadence is not positive or is below the records'
// 1 µs resolution.
func checkFluidityRule(f *FluidityRule) error {
	if f != nil && (f.FirstTokenDeadline <= 0 || f.Cadence <= 0) {
		return fmt.Errorf("score options: fluidity needs a positive first-token deadline and cadence, got %v and %v", f.FirstTokenDeadline, f.Cadence)
	}
	if f != nil && (f.FirstTokenDeadline < time.Microsecond || f.Cadence < time.Microsecond) {
		return fmt.Errorf("score options: fluidity deadline %v and cadence %v: both must be at least the records' 1 µs resolution", f.FirstTokenDeadline, f.Cadence)
	}
	return nil
}

// inWindow reports whether a scheduled time falls in the half-open window.
func (set scoreSetup) inWindow(scheduledMS float64) bool {
	return scheduledMS >= set.window[0] && scheduledMS < set.window[1]
}

// limitMS converts a declared bound into the records' unit.
func sloLimitMS(d time.Duration) float64 { return record.Millis(d) }

// sloUnset reports whether no bound was given at all (a negative bound is
// given, and rejected later).
func sloUnset(s report.SLO) bool { return s.TTFT == 0 && s.TPOT == 0 && s.E2E == 0 }

// scoreFinite reports whether x is neither NaN nor infinite.
func scoreFinite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }
