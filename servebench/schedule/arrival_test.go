package schedule

import (
	"math"
	"slices"
	"strings"
	"testing"
	"time"
)

func ms(v float64) time.Duration { return time.Duration(v * float64(time.Millisecond)) }

func TestConstantArrivalsAreEvenlySpaced(t *testing.T) {
	a, err := NewArrival(ArrivalSpec{Process: "constant", RateRPS: 10})
	if err != nil {
		t.Fatal(err)
	}
	got, end, err := a.Offsets(5, 0)
	if err != nil {
		t.Fatal(err)
	}
	want := []time.Duration{0, ms(100), ms(200), ms(300), ms(400)}
	if !slices.Equal(got, want) || end != ms(500) {
		t.Fatalf("offsets %v end %v, want %v end 500ms", got, end, want)
	}
}

func TestDurationBoundsTheWindow(t *testing.T) {
	a, _ := NewArrival(ArrivalSpec{Process: "constant", RateRPS: 10})
	got, end, err := a.Offsets(0, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 10 || got[9] != ms(900) || end != time.Second {
		t.Fatalf("got %d arrivals, last %v, end %v; want 10, 900ms, 1s", len(got), got[len(got)-1], end)
	}
	// Count and duration together: whichever binds first.
	got, end, _ = a.Offsets(3, time.Second)
	if len(got) != 3 || end != ms(300) {
		t.Fatalf("count 3 within 1s: got %d arrivals, end %v; want 3, 300ms", len(got), end)
	}
}

func TestBurstGroups(t *testing.T) {
	a, err := NewArrival(ArrivalSpec{Process: "burst", RateRPS: 10, BurstSize: 4})
	if err != nil {
		t.Fatal(err)
	}
	got, end, _ := a.Offsets(10, 0)
	want := []time.Duration{0, 0, 0, 0, ms(400), ms(400), ms(400), ms(400), ms(800), ms(800)}
	if !slices.Equal(got, want) || end != ms(1200) {
		t.Fatalf("offsets %v end %v, want %v end 1.2s", got, end, want)
	}
}

// gapStats returns the mean and coefficient of variation of the gaps
// between consecutive offsets.
func gapStats(offsets []time.Duration) (mean, cv float64) {
	n := float64(len(offsets) - 1)
	var sum, sq float64
	for i := 1; i < len(offsets); i++ {
		g := (offsets[i] - offsets[i-1]).Seconds()
		sum += g
		sq += g * g
	}
	mean = sum / n
	return mean, math.Sqrt(sq/n-mean*mean) / mean
}

func TestSampledProcessStatistics(t *testing.T) {
	const n = 40000
	for _, tc := range []struct {
		spec   ArrivalSpec
		wantCV float64
	}{
		{ArrivalSpec{Process: "poisson", RateRPS: 100, Seed: 1}, 1},
		{ArrivalSpec{Process: "gamma", RateRPS: 100, Burstiness: 0.25, Seed: 2}, 2}, // CV = 1/sqrt(0.25)
		{ArrivalSpec{Process: "gamma", RateRPS: 100, Burstiness: 4, Seed: 3}, 0.5},  // CV = 1/sqrt(4)
		{ArrivalSpec{Process: "gamma", RateRPS: 100, Burstiness: 1, Seed: 4}, 1},    // gamma k=1 is Poisson
		{ArrivalSpec{Process: "constant", RateRPS: 100, Seed: 5}, 0},
	} {
		a, err := NewArrival(tc.spec)
		if err != nil {
			t.Fatal(err)
		}
		got, _, err := a.Offsets(n, 0)
		if err != nil {
			t.Fatal(err)
		}
		mean, cv := gapStats(got)
		// With 40k gaps the standard error of the mean is about CV/200;
		// 3 % of the mean and 5 % of the CV leave a wide margin.
		if math.Abs(mean-0.01) > 0.0003 {
			t.Errorf("%s k=%v: mean gap %.5f s, want 0.01 s", tc.spec.Process, tc.spec.Burstiness, mean)
		}
		if math.Abs(cv-tc.wantCV) > 0.05*max(tc.wantCV, 0.02) {
			t.Errorf("%s k=%v: CV %.3f, want %.3f", tc.spec.Process, tc.spec.Burstiness, cv, tc.wantCV)
		}
	}
}

func TestSampledProcessesAreDeterministicBySeed(t *testing.T) {
	for _, p := range []Process{ProcessPoisson, ProcessGamma} {
		spec := ArrivalSpec{Process: p, RateRPS: 50, Burstiness: 0.5, Seed: 42}
		a1, _ := NewArrival(spec)
		a2, _ := NewArrival(spec)
		x, _, _ := a1.Offsets(500, 0)
		y, _, _ := a2.Offsets(500, 0)
		if !slices.Equal(x, y) {
			t.Errorf("%s: same seed gave different schedules", p)
		}
		spec.Seed = 43
		a3, _ := NewArrival(spec)
		z, _, _ := a3.Offsets(500, 0)
		if slices.Equal(x, z) {
			t.Errorf("%s: seeds 42 and 43 gave the same schedule", p)
		}
	}
}

func TestWindowSpansNGaps(t *testing.T) {
	// N arrivals span N gaps: the window ends where the next arrival would
	// have come, so offered/window estimates the rate without bias.
	a, _ := NewArrival(ArrivalSpec{Process: "poisson", RateRPS: 20, Seed: 9})
	got, end, _ := a.Offsets(1000, 0)
	if end <= got[len(got)-1] {
		t.Fatalf("window end %v is not after the last arrival %v", end, got[len(got)-1])
	}
	rate := 1000 / end.Seconds()
	if math.Abs(rate-20) > 2 {
		t.Fatalf("realized rate %.2f, want about 20", rate)
	}
}

func TestArrivalErrors(t *testing.T) {
	for _, tc := range []struct {
		spec ArrivalSpec
		want string
	}{
		{ArrivalSpec{Process: "poisson"}, "arrival: RateRPS: poisson rate must be a positive finite number of requests per second, got 0"},
		{ArrivalSpec{Process: "poisson", RateRPS: math.Inf(1)}, "arrival: RateRPS: poisson rate must be a positive finite number of requests per second, got +Inf"},
		{ArrivalSpec{Process: "gamma", RateRPS: 1}, "arrival: Burstiness: gamma burstiness must be a positive finite shape k, got 0"},
		{ArrivalSpec{Process: "burst", RateRPS: 1}, "arrival: BurstSize: burst size must be at least 1, got 0"},
		{ArrivalSpec{Process: "sine", RateRPS: 1}, `unknown process "sine"`},
		{ArrivalSpec{Process: "replay"}, "not built from a spec"},
	} {
		_, err := NewArrival(tc.spec)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: error %v, want it to mention %q", tc.spec, err, tc.want)
		}
	}
	a, _ := NewArrival(ArrivalSpec{Process: "constant", RateRPS: 1})
	if _, _, err := a.Offsets(0, 0); err == nil {
		t.Error("an unbounded schedule was accepted")
	}
}

func TestReplayKeepsOrderAndScalesGaps(t *testing.T) {
	w, err := ParseWorkload("trace.jsonl", []byte(
		`{"id":"a","prompt":"x","max_tokens":1,"scheduled_ms":0}
{"id":"b","prompt":"x","max_tokens":1,"scheduled_ms":100}
{"id":"c","prompt":"x","max_tokens":1,"scheduled_ms":50}
`))
	if err != nil {
		t.Fatal(err)
	}
	r, err := NewReplay(w, 0.5)
	if err != nil {
		t.Fatal(err)
	}
	got, end, _ := r.Offsets(0, 0)
	want := []time.Duration{0, ms(25), ms(50)}
	// The window closes one mean gap (25 ms) after the last arrival.
	if !slices.Equal(got, want) || end != ms(75) {
		t.Fatalf("offsets %v end %v, want %v end 75ms", got, end, want)
	}
	if !slices.Equal(r.rowOrder(), []int{0, 2, 1}) {
		t.Fatalf("row order %v, want [0 2 1]", r.rowOrder())
	}
	if n := r.notes(); len(n) != 1 || !strings.Contains(n[0], "duration changed") {
		t.Fatalf("notes %q should say the duration changed", n)
	}
}

func TestReplayNeedsStoredTimes(t *testing.T) {
	w, _ := ParseWorkload("w.jsonl", []byte("{\"prompt\":\"x\",\"max_tokens\":1,\"scheduled_ms\":0}\n{\"prompt\":\"y\",\"max_tokens\":1}\n"))
	_, err := NewReplay(w, 1)
	if err == nil || !strings.Contains(err.Error(), "w.jsonl:2: scheduled_ms") {
		t.Fatalf("error %v, want it to name w.jsonl:2 and scheduled_ms", err)
	}
}
