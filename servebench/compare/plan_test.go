package compare

import (
	"math"
	"strings"
	"testing"
)

// Four fixed rounds of 40 requests, attainment deciding alone at a 1-point
// tolerance: the prior round noise is binomial at 0.995, σ = √(0.995·0.005/40)
// = 0.011153; the one look spends all of 0.05, so t = t₃(0.95) = 2.353363,
// and the smallest decidable tolerance is (2.353363 + z₀.₈ 0.841621)·√2·σ/√4
// = 0.025197 > 0.01: the plan cannot decide, and the run size that can is
// 40·(0.025197/0.01)² = 253.97, so 254 requests a round.
func TestCheckPlanNamesTheRequestsThatDecide(t *testing.T) {
	plan, err := CheckPlan(Options{Tolerances: []Tolerance{{"attainment", 0.01}}}, "", 40, 4, true, nil)
	if err != nil {
		t.Fatal(err)
	}
	s := plan.Statistics[0]
	sigma := math.Sqrt(0.995 * 0.005 / 40)
	minTol := (2.3533634348018264 + 0.8416212335729143) * math.Sqrt2 * sigma / 2
	near(t, "noise", s.Noise, sigma, 1e-12)
	near(t, "smallest tolerance", s.MinTolerance, math.Ceil(minTol*1000)/1000, 1e-12)
	want := int(math.Ceil(40 * (minTol / 0.01) * (minTol / 0.01)))
	if s.CanDecide || plan.CanDecide() || s.RequestsNeeded != want || want != 254 {
		t.Errorf("can decide %v, needs %d requests; want false, %d (254)", s.CanDecide, s.RequestsNeeded, want)
	}
	if !strings.Contains(s.Advice, "a 1 pt attainment tolerance needs about 254 requests a round (this plan: 40)") {
		t.Errorf("advice %q", s.Advice)
	}
	// 300 requests a round decide it.
	plan, _ = CheckPlan(Options{Tolerances: []Tolerance{{"attainment", 0.01}}}, "", 300, 4, true, nil)
	if !plan.CanDecide() {
		t.Errorf("300 requests a round: %s", plan.Describe())
	}
}

// A p99 needs 500 observations a side at the first look of 4 rounds: at
// 100 requests a round it cannot be decided, and 125 a round can.
func TestCheckPlanCountsObservationsBeyondAPercentile(t *testing.T) {
	opts := Options{Tolerances: []Tolerance{{"tpot_p99", 0.5}}}
	plan, err := CheckPlan(opts, "", 100, 20, false, nil)
	if err != nil {
		t.Fatal(err)
	}
	if s := plan.Statistics[0]; s.CanDecide || s.RequestsNeeded != 125 || !strings.Contains(s.Advice, "p99 needs at least 500 observations a side") {
		t.Errorf("%+v", s)
	}
	if plan, _ := CheckPlan(opts, "", 125, 20, false, nil); !plan.CanDecide() {
		t.Errorf("125 requests a round: %s", plan.Describe())
	}
}

// Measured noise replaces the prior, scaled to the run size as
// 1/√requests: 2 % over rounds of 100 requests is ln(1.02)·√(100/400) at
// 400.
func TestCheckPlanTakesTheMeasuredNoise(t *testing.T) {
	nf := &NoiseFloor{Rounds: 6, RequestsPerRound: 100, Statistics: []StatisticNoise{{Name: "tpot_p50", Noise: 0.02, NoiseUpper: 0.04}}}
	plan, err := CheckPlan(Options{Tolerances: []Tolerance{{"tpot_p50", 0.05}}}, "", 400, 20, false, nf)
	if err != nil {
		t.Fatal(err)
	}
	s := plan.Statistics[0]
	near(t, "noise", s.Noise, math.Expm1(math.Log(1.02)*0.5), 1e-12)
	if !strings.HasPrefix(s.NoiseSource, "noise.json") || !s.CanDecide {
		t.Errorf("%+v", s)
	}
}

// Without noise.json a latency median takes its metric's prior: TPOT's 2 %
// and TTFT's 5.5 % a round at 150 requests. At 150 requests and at most 20
// rounds the last look spends α(1) − α(0.9) = 0.05·(1 − ln(1 + (e − 1)·0.9))
// with t on 19 degrees of freedom, so the smallest tolerance is
// (t + z₀.₈)·√2·σ/√20: for TPOT, σ = ln 1.02, within a 5 % tolerance; for
// TTFT, σ = ln 1.055, beyond it, and the run size that decides is
// 150·(smallest/ln 1.05)².
func TestCheckPlanTakesTheMetricsPrior(t *testing.T) {
	plan, err := CheckPlan(Options{Tolerances: []Tolerance{{"tpot_p50", 0.05}, {"ttft_p50", 0.05}}}, "", 150, 20, false, nil)
	if err != nil {
		t.Fatal(err)
	}
	last := 0.05 * (1 - math.Log(1+(math.E-1)*0.9))
	smallest := func(sigma float64) float64 {
		return (tQuantile(1-last, 19) + 0.8416212335729143) * math.Sqrt2 * sigma / math.Sqrt(20)
	}
	tpot, ttft := plan.Statistics[0], plan.Statistics[1]
	near(t, "tpot noise", tpot.Noise, 0.02, 1e-12)
	near(t, "ttft noise", ttft.Noise, 0.055, 1e-12)
	if !tpot.CanDecide || smallest(math.Log(1.02)) > math.Log(1.05) {
		t.Errorf("tpot_p50: %+v", tpot)
	}
	want := int(math.Ceil(150 * math.Pow(smallest(math.Log(1.055))/math.Log(1.05), 2)))
	if ttft.CanDecide || ttft.RequestsNeeded != want || !strings.Contains(ttft.NoiseSource, "prior: 5.5 % a round at 150 requests") {
		t.Errorf("ttft_p50: %+v; want cannot decide, %d requests a round", ttft, want)
	}
}
