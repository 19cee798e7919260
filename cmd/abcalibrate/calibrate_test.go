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
