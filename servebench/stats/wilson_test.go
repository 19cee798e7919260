package stats

import (
	"math"
	"testing"
)

func TestWilsonSeedFigures(t *testing.T) {
	cases := []struct {
		good, n int
		want    float64 // to three decimals, from seed 000
	}{{190, 200, 0.918}, {200, 200, 0.987}, {20, 20, 0.881}}
	for _, c := range cases {
		got, ok := WilsonLower(c.good, c.n, 0.95)
		if !ok {
			t.Fatalf("%d/%d: not ok", c.good, c.n)
		}
		if math.Round(got*1000)/1000 != c.want {
			t.Fatalf("%d/%d: lower bound %v, want %.3f", c.good, c.n, got, c.want)
		}
	}
	// Full precision against the closed form evaluated independently.
	got, _ := WilsonLower(190, 200, 0.95)
	if math.Abs(got-0.9181081670817905) > 1e-12 {
		t.Fatalf("190/200 = %.16f", got)
	}
}

func TestWilsonEdges(t *testing.T) {
	if lo, ok := WilsonLower(0, 5, 0.95); !ok || lo != 0 {
		t.Fatalf("0/5 = %v %v, want 0 (clamped)", lo, ok)
	}
	// At confidence 0.5, z = 0 and the bound is the observed proportion.
	if lo, _ := WilsonLower(3, 4, 0.5); math.Abs(lo-0.75) > 1e-12 {
		t.Fatalf("confidence 0.5: %v", lo)
	}
	for _, c := range []struct {
		good, n int
		conf    float64
	}{{1, 0, 0.95}, {-1, 5, 0.95}, {6, 5, 0.95}, {1, 5, 0}, {1, 5, 1}, {1, 5, math.NaN()}} {
		if _, ok := WilsonLower(c.good, c.n, c.conf); ok {
			t.Fatalf("WilsonLower(%d, %d, %v) accepted", c.good, c.n, c.conf)
		}
	}
}

func TestNormalQuantile(t *testing.T) {
	known := []struct{ p, z float64 }{
		{0.95, 1.6448536269514722},
		{0.975, 1.959963984540054},
		{0.99, 2.3263478740408408},
		{0.5, 0},
		{0.001, -3.090232306167813},
		{1e-10, -6.361340902404056},
	}
	for _, k := range known {
		if got := NormalQuantile(k.p); math.Abs(got-k.z) > 1e-12 {
			t.Fatalf("NormalQuantile(%v) = %.16f, want %.16f", k.p, got, k.z)
		}
	}
	// Across (0, 1) it inverts the CDF to double precision; compare with
	// the standard library's inverse error function.
	for i := 1; i < 2000; i++ {
		p := float64(i) / 2000
		want := math.Sqrt2 * math.Erfinv(2*p-1)
		if got := NormalQuantile(p); math.Abs(got-want) > 1e-9*math.Max(1, math.Abs(want)) {
			t.Fatalf("NormalQuantile(%v) = %v, erfinv gives %v", p, got, want)
		}
	}
	if !math.IsInf(NormalQuantile(0), -1) || !math.IsInf(NormalQuantile(1), 1) || !math.IsNaN(NormalQuantile(2)) {
		t.Fatal("edge values")
	}
}
