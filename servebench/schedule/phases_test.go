package schedule

import (
	"strings"
	"testing"
	"time"
)

// TestParsePhases reads the flag's form.
func TestParsePhases(t *testing.T) {
	got, err := ParsePhases("steady:30s@10, burst:10s@40,recovery:1m@2.5")
	if err != nil {
		t.Fatal(err)
	}
	want := []Phase{{"steady", 30000, 10}, {"burst", 10000, 40}, {"recovery", 60000, 2.5}}
	if len(got) != len(want) {
		t.Fatalf("%v", got)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("phase %d = %+v, want %+v", i, got[i], want[i])
		}
	}
	// (10 × 30 + 40 × 10 + 2.5 × 60) / 100 s = 850 / 100 = 8.5 req/s.
	if m := PhasesMeanRate(got); m != 8.5 {
		t.Errorf("mean rate %v, want 8.5", m)
	}
	if d := PhasesDuration(got); d != 100*time.Second {
		t.Errorf("duration %v, want 100s", d)
	}
}

// TestParsePhasesRefusesBadPhases: no duration, a rate of 0, no name.
func TestParsePhasesRefusesBadPhases(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"steady:30s@10,burst:@40", `phase 2 ("burst:@40"): no duration`},
		{"steady:0s@10", `phase 1 ("steady:0s@10"): no duration: a phase needs a positive duration, got 0 ms`},
		{"steady:30s@0", `phase 1 ("steady:30s@0"): rate 0: a phase needs a positive finite rate in requests per second (a rate of 0 sends nothing)`},
		{"steady:30s", `phase 1 ("steady:30s"): no rate`},
		{":30s@1", `phase 1 (":30s@1"): no name`},
		{"steady:soon@1", `phase 1 ("steady:soon@1"): duration "soon"`},
		{"steady:1s@many", `phase 1 ("steady:1s@many"): rate "many"`},
		{"", "no phase"},
	} {
		if _, err := ParsePhases(tc.in); err == nil || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("%q: err %v, want it to start %q", tc.in, err, tc.want)
		}
	}
}

// TestPhasedArrivalsCountedByHand: constant arrivals at 10/s for 1 s (0,
// 100, …, 900 ms: 10), 40/s for 500 ms (1000, 1025, …, 1475: 20), 10/s for
// 1 s (1500, …, 2400: 10); the window ends at 2500 ms.
func TestPhasedArrivalsCountedByHand(t *testing.T) {
	spec := ArrivalSpec{Process: ProcessConstant, Seed: 1}.WithPhases([]Phase{{"steady", 1000, 10}, {"burst", 500, 40}, {"recovery", 1000, 10}})
	// (10 × 1 + 40 × 0.5 + 10 × 1) / 2.5 s = 40 / 2.5 = 16 req/s.
	if spec.RateRPS != 16 {
		t.Errorf("mean rate %v, want 16", spec.RateRPS)
	}
	a, err := NewArrival(spec)
	if err != nil {
		t.Fatal(err)
	}
	offsets, end, err := a.Offsets(0, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(offsets) != 40 || end != 2500*time.Millisecond {
		t.Fatalf("%d arrivals, window end %v; want 40 and 2.5s", len(offsets), end)
	}
	per := [3]int{}
	for _, o := range offsets {
		switch {
		case o < time.Second:
			per[0]++
		case o < 1500*time.Millisecond:
			per[1]++
		default:
			per[2]++
		}
	}
	if per != [3]int{10, 20, 10} {
		t.Errorf("arrivals per phase %v, want [10 20 10]", per)
	}
	for i, want := range map[int]time.Duration{9: 900 * time.Millisecond, 10: time.Second, 11: 1025 * time.Millisecond, 30: 1500 * time.Millisecond, 39: 2400 * time.Millisecond} {
		if offsets[i] != want {
			t.Errorf("arrival %d at %v, want %v", i, offsets[i], want)
		}
	}
	// A count keeps the first arrivals; the window ends at the next one.
	if offsets, end, _ = a.Offsets(12, 0); len(offsets) != 12 || end != 1050*time.Millisecond {
		t.Errorf("count 12: %d arrivals, end %v; want 12 and 1.05s", len(offsets), end)
	}
	for _, bad := range []ArrivalSpec{
		spec.WithPhases([]Phase{{"steady", 1000, 0}}),
		{Process: ProcessReplay, Phases: []Phase{{"steady", 1000, 1}}},
	} {
		if _, err := NewArrival(bad); err == nil {
			t.Errorf("%+v: no error", bad)
		}
	}
}
