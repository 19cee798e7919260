package capacity

import (
	"slices"
	"testing"
)

// With a knee at 5.3 req/s, start 1, factor 2 and resolution 0.5 the
// coarse series is 1, 2, 4, 8 (8 fails), and bisection tries 6 (fails),
// 5 (passes), 5.5 (fails): the bracket [5, 5.5] is 0.5 wide and stops it.
func TestAutoRatesCoarseThenBisect(t *testing.T) {
	a := &AutoRates{StartRPS: 1, MaxRPS: 100, ResolutionRPS: 0.5}
	if err := a.check(); err != nil {
		t.Fatal(err)
	}
	var ran []float64
	if err := a.search(func(r float64) (bool, error) { ran = append(ran, r); return r <= 5.3, nil }); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(a.Coarse, []float64{1, 2, 4, 8}) || !slices.Equal(a.Bisected, []float64{6, 5, 5.5}) {
		t.Fatalf("coarse %v bisected %v", a.Coarse, a.Bisected)
	}
	if *a.Bracket[0] != 5 || *a.Bracket[1] != 5.5 || len(ran) != 7 {
		t.Fatalf("bracket %v %v ran %v", *a.Bracket[0], *a.Bracket[1], ran)
	}
}

// A start above the knee descends by the factor until a rate passes; a
// sweep that passes at MaxRPS stops there with no upper bracket.
func TestAutoRatesDescendsAndStopsAtMax(t *testing.T) {
	a := &AutoRates{StartRPS: 16, MaxRPS: 16, ResolutionRPS: 1}
	_ = a.check()
	_ = a.search(func(r float64) (bool, error) { return r <= 3, nil })
	// 16, 8, 4 fail; 2 passes; bisect 3 (pass): [3, 4] is 1 wide.
	if !slices.Equal(a.Coarse, []float64{16, 8, 4, 2}) || !slices.Equal(a.Bisected, []float64{3}) || *a.Bracket[0] != 3 || *a.Bracket[1] != 4 {
		t.Fatalf("coarse %v bisected %v", a.Coarse, a.Bisected)
	}
	b := &AutoRates{StartRPS: 1, MaxRPS: 3, ResolutionRPS: 1}
	_ = b.check()
	_ = b.search(func(float64) (bool, error) { return true, nil })
	if !slices.Equal(b.Coarse, []float64{1, 2, 3}) || b.Bracket[1] != nil || *b.Bracket[0] != 3 {
		t.Fatalf("coarse %v bracket %v", b.Coarse, b.Bracket)
	}
}

func TestAutoRatesRejectsBadSettings(t *testing.T) {
	for _, a := range []AutoRates{
		{StartRPS: 0, MaxRPS: 1, ResolutionRPS: 1},
		{StartRPS: 1, MaxRPS: 0.5, ResolutionRPS: 1},
		{StartRPS: 1, MaxRPS: 2, ResolutionRPS: 0},
		{StartRPS: 1, MaxRPS: 2, ResolutionRPS: 1, Factor: 1},
	} {
		if err := a.check(); err == nil {
			t.Errorf("%+v accepted", a)
		}
	}
}
