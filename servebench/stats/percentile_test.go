package stats

import (
	"math"
	"testing"
)

func TestPercentileSeedGaps(t *testing.T) {
	// Seed 000: the gaps [40, 40, 120, 40], nearest-rank p99 = sorted[ceil(3.96) − 1] = 120.
	gaps := []float64{40, 40, 40, 120}
	cases := []struct {
		p    float64
		want float64
	}{{99, 120}, {50, 40}, {75, 40}, {76, 120}, {100, 120}, {0, 40}}
	for _, c := range cases {
		got, ok := Percentile(gaps, c.p, NearestRank)
		if !ok || got != c.want {
			t.Fatalf("nearest-rank p%v = %v %v, want %v", c.p, got, ok, c.want)
		}
	}
}

func TestNearestRankExactRanks(t *testing.T) {
	// p95 of 20 values is the 19th; p99 of 80 values is the maximum.
	twenty := make([]float64, 20)
	for i := range twenty {
		twenty[i] = float64(i + 1)
	}
	if got, _ := Percentile(twenty, 95, ""); got != 19 {
		t.Fatalf("p95 of 1..20 = %v, want 19", got)
	}
	eighty := make([]float64, 80)
	for i := range eighty {
		eighty[i] = float64(i + 1)
	}
	if got, _ := Percentile(eighty, 99, NearestRank); got != 80 {
		t.Fatalf("p99 of 1..80 = %v, want the maximum 80", got)
	}
	// p10 of 10 values is rank 1, not rank 2 from 0.1*10 = 1.0000000000000002.
	ten := twenty[:10]
	if got, _ := Percentile(ten, 10, NearestRank); got != 1 {
		t.Fatalf("p10 of 1..10 = %v, want 1", got)
	}
}

func TestLinear(t *testing.T) {
	xs := []float64{10, 20, 30, 40}
	cases := []struct{ p, want float64 }{
		{0, 10}, {100, 40}, {50, 25}, // h = 1.5
		{90, 37}, // h = 2.7: 30 + 0.7·10
		{99, 39.7},
	}
	for _, c := range cases {
		got, ok := Percentile(xs, c.p, Linear)
		if !ok || math.Abs(got-c.want) > 1e-9 {
			t.Fatalf("linear p%v = %v, want %v", c.p, got, c.want)
		}
	}
	if got, _ := Percentile([]float64{7}, 99, Linear); got != 7 {
		t.Fatalf("one sample: %v", got)
	}
}

func TestPercentileRejects(t *testing.T) {
	if _, ok := Percentile(nil, 50, ""); ok {
		t.Fatal("empty sample gave a percentile")
	}
	if _, ok := Percentile([]float64{1}, 101, ""); ok {
		t.Fatal("p = 101 accepted")
	}
	if _, ok := Percentile([]float64{1}, math.NaN(), ""); ok {
		t.Fatal("p = NaN accepted")
	}
	if _, ok := Percentile([]float64{1}, 50, "median-of-means"); ok {
		t.Fatal("unknown method accepted")
	}
}

func TestPercentileMethodValid(t *testing.T) {
	for m, want := range map[PercentileMethod]bool{"": true, NearestRank: true, Linear: true, "Linear": false, "median-of-means": false} {
		if m.Valid() != want {
			t.Errorf("%q.Valid() = %v, want %v", m, !want, want)
		}
	}
}
