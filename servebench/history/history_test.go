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

// MinReleases follows from the floor 2/C(n, ⌊n/2⌋) of the permutation
// p-value: at 0.05, C(7, 3) = 35 gives 0.057 and C(8, 4) = 70 gives 0.029;
// at 0.1, C(6, 3) = 20 gives exactly 0.1; at 0.01, C(10, 5) = 252; at
// 0.005 (1/200, the smallest p the 199 shuffles give), C(11, 5) = 462;
// below 1/200 no series can show a change.
func TestMinReleasesFollowsThePValueFloor(t *testing.T) {
	for alpha, want := range map[float64]int{0.05: 8, 0.1: 6, 0.01: 10, 0.005: 11, 0.004: 0, 0.5: 4, 0.99: 3} {
		if got := MinReleases(alpha); got != want {
			t.Errorf("MinReleases(%v) = %d, want %d", alpha, got, want)
		}
	}
}

// The floor holds for the statistic itself: over every order of the most
// extreme step of n releases (n/2 low values, then n/2 high, all
// distinct), the share whose best split reaches the step's Q is the exact
// p-value. It is 2/C(n, ⌊n/2⌋), above 0.05 for 7 releases and below it
// for 8, as MinReleases(0.05) says.
func TestTheExactPValueOfAPerfectStepIsTheFloor(t *testing.T) {
	for _, n := range []int{7, 8} {
		x := make([]float64, n)
		for i := range x {
			x[i] = float64(i)
			if i >= n/2 {
				x[i] += 100
			}
		}
		_, q := energySplit(x)
		reach, total := 0, 0
		permute(append([]float64(nil), x...), 0, func(y []float64) {
			total++
			if _, qy := energySplit(y); qy >= q-1e-9 {
				reach++
			}
		})
		p := float64(reach) / float64(total)
		if want := 2 / binomial(n, n/2); math.Abs(p-want) > 1e-12 {
			t.Errorf("%d releases: exact p %v, want the floor %v", n, p, want)
		}
		if declarable := p <= 0.05; declarable != (n >= MinReleases(0.05)) {
			t.Errorf("%d releases: exact p %v, MinReleases(0.05) = %d", n, p, MinReleases(0.05))
		}
	}
}

// permute calls f with every order of x[k:] (Heap's algorithm would do;
// this is the plain recursive swap).
func permute(x []float64, k int, f func([]float64)) {
	if k == len(x) {
		f(x)
		return
	}
	for i := k; i < len(x); i++ {
		x[k], x[i] = x[i], x[k]
		permute(x, k+1, f)
		x[k], x[i] = x[i], x[k]
	}
}

// Three releases cannot show a change at 0.05: the history says so, and
// how many releases it needs, instead of "no change" for every metric;
// no series is tested.
func TestAShortHistorySaysItCannotShowAChange(t *testing.T) {
	rel := []Release{
		{Name: "v1", Values: map[string]float64{"ttft_p99": 100, "attainment": 0.99}},
		{Name: "v2", Values: map[string]float64{"ttft_p99": 100, "attainment": 0.99}},
		{Name: "v3", Values: map[string]float64{"ttft_p99": 400, "attainment": 0.50}},
	}
	h, err := Analyze(rel, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !h.TooShort() || h.MinReleases != 8 || len(h.Metrics) != 2 || len(h.Metrics[0].Changes)+len(h.Metrics[1].Changes) != 0 {
		t.Fatalf("history %+v", h)
	}
	var text strings.Builder
	if err := h.WriteText(&text); err != nil {
		t.Fatal(err)
	}
	want := "releases, in order: v1, v2, v3\nmethod: " + h.Method + "\n" +
		"too short: no change can be shown in 3 releases at a false-alarm rate of 0.05: the permutation test needs at least 8 releases to declare one\n" +
		"attainment: 0.9900 0.9900 0.5000\n  no change can be shown (too short)\n" +
		"ttft_p99: 100.00 ms 100.00 ms 400.00 ms\n  no change can be shown (too short)\n" +
		"ratio policy: " + h.Ratio.Rule() + "\n" +
		"  ttft_p99: no release has 3 before it\n" +
		"newest release v3 under the changepoint policy: insufficient_data\n" +
		"  no change can be shown in 3 releases at a false-alarm rate of 0.05: the permutation test needs at least 8 releases to declare one\n"
	if text.String() != want {
		t.Errorf("text:\n%s\nwant:\n%s", text.String(), want)
	}
	var page strings.Builder
	if err := h.WriteHTML(&page); err != nil || !strings.Contains(page.String(), "<p><strong>Too short:</strong> no change can be shown in 3 releases at a false-alarm rate of 0.05: the permutation test needs at least 8 releases to declare one.</p>") ||
		strings.Count(page.String(), "<p>No change can be shown (too short).</p>") != 2 {
		t.Errorf("html (%v):\n%s", err, page.String())
	}
	h, err = Analyze(rel, Options{FalseAlarm: 0.001})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := h.ShortNotice(), "no change can be shown at a false-alarm rate of 0.001: the permutation test's 199 shuffles give no p-value below 0.005; raise the false-alarm rate"; got != want {
		t.Errorf("notice %q, want %q", got, want)
	}
}
