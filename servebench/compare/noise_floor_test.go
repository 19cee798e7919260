package compare

import (
	"math"
	"testing"

	"github.com/servebench/servebench/servebench/report"
)

// Three identical rounds of 1000 requests with attainment 0.90, 0.92 and
// 0.94: the standard deviation of a round is 0.02, above the binomial
// √(p̃(1 − p̃)/1000) = 0.0086 at p̃ = 920.5/1001, so the noise is 0.02; its
// upper bound at 95 % is 0.02·√(2/χ²₂(0.05)) with χ²₂(0.05) = −2 ln 0.95;
// the smallest tolerance over at most 20 rounds is (t₁₉ at
// 1 − (α(1) − α(0.9)), + z₀.₈)·√2·0.02/√20 (the upper end, which calls
// no_regression, is not corrected over the 4 deciding statistics), at
// least the noise, rounded up to a tenth of a point.
func TestMeasureNoiseByHand(t *testing.T) {
	rounds := []*report.Report{attainmentReport(900, 1000), attainmentReport(920, 1000), attainmentReport(940, 1000)}
	nf, err := MeasureNoise(rounds, NoiseOptions{Tolerances: []Tolerance{{"attainment", 0.01}}})
	if err != nil {
		t.Fatal(err)
	}
	if nf.Rounds != 3 || nf.RequestsPerRound != 1000 || nf.MaxRounds != 20 || nf.Deciding != 4 || nf.Confidence != 0.95 {
		t.Errorf("header %+v", nf)
	}
	s := nf.Statistics[0]
	near(t, "noise", s.Noise, 0.02, 1e-12)
	upper := 0.02 * math.Sqrt(2/(-2*math.Log(0.95)))
	near(t, "upper", s.NoiseUpper, upper, 1e-9)
	last := 0.05 * (1 - math.Log(1+(math.E-1)*0.9))
	tq := tQuantile(1-last, 19)
	want := math.Max((tq+0.8416212335729143)*math.Sqrt2*0.02/math.Sqrt(20), 0.02)
	near(t, "smallest tolerance", s.MinTolerance, math.Ceil(want*1000)/1000, 1e-12)
	// Identical rounds at attainment 1: the binomial noise of a round of
	// 1000 at p̃ = 1000.5/1001 is the floor of the noise and of its bound.
	same := []*report.Report{attainmentReport(1000, 1000), attainmentReport(1000, 1000), attainmentReport(1000, 1000)}
	nf, err = MeasureNoise(same, NoiseOptions{Tolerances: []Tolerance{{"attainment", 0.01}}})
	if err != nil {
		t.Fatal(err)
	}
	p := 1000.5 / 1001
	near(t, "binomial noise", nf.Statistics[0].Noise, math.Sqrt(p*(1-p)/1000), 1e-12)
	near(t, "binomial bound", nf.Statistics[0].NoiseUpper, math.Sqrt(p*(1-p)/1000), 1e-12)
	if _, err := MeasureNoise(rounds[:1], NoiseOptions{}); err == nil {
		t.Error("one round measured a noise")
	}
}
