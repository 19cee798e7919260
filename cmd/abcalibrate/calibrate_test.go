package main

import (
	"math"
	"testing"

	"github.com/servebench/servebench/servebench/compare"
)

func TestAdvisedRounds(t *testing.T) {
	for decide, want := range map[string]int{
		"about 1 more round would decide it with probability 80%, allowing for the uncertainty of the change and the noise measured so far":   1,
		"about 12 more rounds would decide it with probability 80%, allowing for the uncertainty of the change and the noise measured so far": 12,
		"more than 200 more rounds would be needed: the estimate is too close to the tolerance":                                               -1,
		"about 3× the requests per run would likely decide it":                                                                                -1,
	} {
		got, ok := advisedRounds(decide)
		if (want < 0 && ok) || (want >= 0 && (!ok || got != want)) {
			t.Errorf("%q: %d, %v; want %d", decide, got, ok, want)
		}
	}
}

// Coverage counts an interval holding 0 only on valid load, and counts
// insufficient_data apart from the judged intervals.
func TestTallyCoverage(t *testing.T) {
	tl := newTally()
	tl.add(&compare.Comparison{Valid: true, Verdict: compare.Inconclusive, Comparisons: []compare.MetricComparison{
		{Name: "ttft_p50", CILow: -0.1, CIHigh: 0.2},
		{Name: "e2e_p99.9", Verdict: compare.InsufficientData, CILow: math.NaN(), CIHigh: math.NaN()},
	}}, false)
	tl.add(&compare.Comparison{Valid: true, Verdict: compare.Regression, Comparisons: []compare.MetricComparison{
		{Name: "ttft_p50", CILow: 0.1, CIHigh: 0.2, Verdict: compare.Regression},
	}}, true)
	tl.add(&compare.Comparison{Valid: false, Verdict: compare.Regression, Comparisons: []compare.MetricComparison{
		{Name: "ttft_p50", CILow: 0.1, CIHigh: 0.2},
	}}, true)
	if k := tl.coverage["ttft_p50"]; k.held != 1 || k.judged != 2 {
		t.Errorf("ttft_p50: %+v, want 1 of 2 held", k)
	}
	if k := tl.coverage["e2e_p99.9"]; k.insufficient != 1 || k.judged != 0 {
		t.Errorf("e2e_p99.9: %+v", k)
	}
	if tl.reps != 3 || tl.valid != 2 || tl.hits != 2 || tl.validHits != 1 {
		t.Errorf("tally %+v", tl)
	}
}

// -slowdown changes the decode step of the experiments that slow the
// candidate, and of no other.
func TestSlowdownOverridesOnlySlowingExperiments(t *testing.T) {
	if e := experiments["morerounds"].withSlowdown(1.07); e.slowdown != 1.07 || e.name != "the more-rounds advice (decode step 7 % slower)" {
		t.Errorf("morerounds at 1.07: slowdown %v, name %q", e.slowdown, e.name)
	}
	for _, name := range []string{"aa", "errors2"} {
		if e := experiments[name].withSlowdown(1.07); e.slowdown != 1 || e.name != experiments[name].name {
			t.Errorf("%s at 1.07: slowdown %v, name %q; want it unchanged", name, e.slowdown, e.name)
		}
	}
	if e := experiments["tpot10"].withSlowdown(0); e.slowdown != 1.10 {
		t.Errorf("tpot10 without -slowdown: %v, want 1.10", e.slowdown)
	}
}

// The run-to-run noise is exp(σ·Z) seeded by the run's position: none at
// σ 0, the same factor for the same position (so a rerun with more rounds
// continues the first rounds), and a spread of about σ across positions.
func TestRunNoiseFactor(t *testing.T) {
	if f := runNoiseFactor(0, 3, 5); f != 1 {
		t.Errorf("σ 0: %v, want 1", f)
	}
	if a, b := runNoiseFactor(0.03, 3, 5), runNoiseFactor(0.03, 3, 5); a != b {
		t.Errorf("the same position drew %v and %v", a, b)
	}
	var logs []float64
	for start := 1; start <= 2000; start++ {
		logs = append(logs, math.Log(runNoiseFactor(0.03, 7, start)))
	}
	var mean, ss float64
	for _, x := range logs {
		mean += x / float64(len(logs))
	}
	for _, x := range logs {
		ss += (x - mean) * (x - mean)
	}
	// The standard deviation of 2,000 draws is within 5 % of σ with
	// probability above 0.99 (its standard error is σ/√4000 ≈ 1.6 %).
	if sd := math.Sqrt(ss / float64(len(logs)-1)); math.Abs(sd-0.03) > 0.0015 {
		t.Errorf("spread of ln factor %.5f, want 0.03", sd)
	}
}
