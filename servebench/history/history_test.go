package history

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

// Q for [0 0 1 1]: at τ = 2 the segments {0 0} and {1 1} have mean
// distance 1 between them and none within: Ê = 2·4/4 − 0 − 0 = 2, Q =
// 2·2/4 · 2 = 2. At τ = 1, {0} and {0 1 1}: 2·2/3 − 0 − 2/3 = 2/3, Q =
// 3/4 · 2/3 = 0.5; τ = 3 mirrors it.
func TestEnergySplit(t *testing.T) {
	tau, q := energySplit([]float64{0, 0, 1, 1})
	if tau != 2 || math.Abs(q-2) > 1e-12 {
		t.Errorf("split at %d with Q %v, want 2 and 2", tau, q)
	}
	if q := energy([]float64{0}, []float64{0, 1, 1}); math.Abs(q-0.5) > 1e-12 {
		t.Errorf("Q at τ = 1: %v, want 0.5", q)
	}
}

// Of the six orders of {0 0 1 1}, two (0011 and 1100) reach Q = 2 and the
// other four peak at 0.5, so the permutation p-value is about 1/3: four
// releases cannot show a change at a 5 % false-alarm rate.
func TestFourReleasesCannotShowAChange(t *testing.T) {
	p := permutationP([]float64{0, 0, 1, 1}, 2, rand.New(rand.NewPCG(1, 2)))
	if p < 0.25 || p > 0.42 {
		t.Errorf("p = %v, want about 1/3", p)
	}
	if cps := changePoints([]float64{0, 0, 1, 1}, 0, 4, 0.05, rand.New(rand.NewPCG(1, 2))); len(cps) != 0 {
		t.Errorf("changes %v in four releases", cps)
	}
}

// Twenty releases, p99 TTFT at 100 ms (±1 %) then at 130 ms with the same
// jitter (99, 100, 101, …: geometric mean 99.90 ms before, 129.87 ms
// after): one change, starting at rk, of exactly +30 % (the log means
// differ by ln 1.3); its Welch interval holds +30 % and excludes 0, and no
// shuffle of the series reaches its Q, so p = 1/200. Attainment, constant,
// has no change.
func TestAShiftIsFoundWhereItStarted(t *testing.T) {
	var rel []Release
	for i := range 20 {
		level := 100.0
		if i >= 10 {
			level = 130
		}
		jitter := 1 + 0.01*float64((i%10)%3-1)
		rel = append(rel, Release{Name: "r" + string(rune('a'+i)), Values: map[string]float64{"ttft_p99": level * jitter, "attainment": 0.99}})
	}
	h, err := Analyze(rel, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(h.Metrics) != 2 || h.Metrics[0].Metric != "attainment" || len(h.Metrics[0].Changes) != 0 {
		t.Fatalf("metrics %+v", h.Metrics)
	}
	s := h.Metrics[1]
	if len(s.Changes) != 1 {
		t.Fatalf("changes %+v", s.Changes)
	}
	c := s.Changes[0]
	if c.Index != 10 || c.Release != "rk" || math.Abs(c.Size-0.3) > 1e-9 || math.Abs(c.P-1.0/200) > 1e-12 {
		t.Errorf("change %+v", c)
	}
	if c.CILow == nil || !(*c.CILow > 0 && *c.CILow < 0.3 && *c.CIHigh > 0.3) {
		t.Errorf("interval [%v, %v]", c.CILow, c.CIHigh)
	}
	var text, page strings.Builder
	if err := h.WriteText(&text); err != nil || !strings.Contains(text.String(), "change starting at rk: 99.90 ms -> 129.87 ms, +30.00%") {
		t.Errorf("text (%v):\n%s", err, text.String())
	}
	if err := h.WriteHTML(&page); err != nil || strings.Count(page.String(), "<svg") != 2 {
		t.Errorf("html (%v): %d charts", err, strings.Count(page.String(), "<svg"))
	}
}

func TestAnalyzeRefusesTooFewReleases(t *testing.T) {
	if _, err := Analyze([]Release{{Name: "a"}}, Options{}); err == nil || !strings.Contains(err.Error(), "at least two") {
		t.Errorf("err = %v", err)
	}
}
