package compare

import (
	"github.com/servebench/servebench/servebench/stats"
	"math"
	"testing"
)

// Two values, nearest-rank p50 (rank 1): a resample's p50 is the smaller
// value drawn, which is the first unless both draws hit the second:
// P = 1 − 1/4 = 0.75.
func TestOrderStatisticCDF(t *testing.T) {
	cdf := orderStatisticCDF(2, 50)
	near(t, "P(J<=1)", cdf[0], 0.75, 1e-12)
	near(t, "P(J<=2)", cdf[1], 1, 0)
	// Three values, p100 (rank 3, the maximum): P(max <= x_(2)) = (2/3)^3.
	cdf = orderStatisticCDF(3, 100)
	near(t, "P(max<=x2)", cdf[1], 8.0/27, 1e-12)
	near(t, "P(max<=x1)", cdf[0], 1.0/27, 1e-12)
}

// The bootstrap is seeded: the same inputs give the same interval, and a
// candidate that is the baseline times 1.5 has its change at +50 %.
func TestBootstrapIsDeterministic(t *testing.T) {
	var b, c []float64
	for i := 1; i <= 200; i++ {
		b = append(b, float64(i))
		c = append(c, 1.5*float64(i))
	}
	e1 := bootstrapLogRatio("ttft_p50", b, c, 50, stats.NearestRank, 100, 150, 0.95)
	e2 := bootstrapLogRatio("ttft_p50", b, c, 50, stats.NearestRank, 100, 150, 0.95)
	if e1.lo != e2.lo || e1.hi != e2.hi {
		t.Fatalf("two runs differ: [%v, %v] and [%v, %v]", e1.lo, e1.hi, e2.lo, e2.hi)
	}
	near(t, "change", math.Expm1(e1.mean), 0.5, 1e-12)
	if !(e1.lo < math.Log(1.5) && math.Log(1.5) < e1.hi) {
		t.Errorf("interval [%v, %v] misses ln 1.5", e1.lo, e1.hi)
	}
}

// The bootstrap takes each resample's percentile by the report's method.
// Two requests per side, 10 and 20 ms, p50 at level 0.5 (quartiles of the
// draws). Nearest rank takes the smaller of each resample: 10 with
// probability 3/4, so the ratio C/B is 1/2, 1 or 2 with probabilities
// 3/16, 10/16, 3/16, and both quartiles are 1: [0, 0]. Linear takes the
// mean of the two: 10, 15 or 20 with probabilities 1/4, 1/2, 1/4, so C/B
// has the cumulative probabilities 1/16 (1/2), 3/16 (2/3), 5/16 (3/4),
// 11/16 (1), 13/16 (4/3), 15/16 (3/2), 1 (2), and quartiles 3/4 and 4/3.
func TestBootstrapHonoursThePercentileMethod(t *testing.T) {
	xs := []float64{10, 20}
	e := bootstrapLogRatio("ttft_p50", xs, xs, 50, stats.NearestRank, 10, 10, 0.5)
	if e.lo != 0 || e.hi != 0 {
		t.Errorf("nearest rank: [%v, %v], want [0, 0]", e.lo, e.hi)
	}
	e = bootstrapLogRatio("ttft_p50", xs, xs, 50, stats.Linear, 15, 15, 0.5)
	near(t, "linear lo", e.lo, math.Log(0.75), 1e-12)
	near(t, "linear hi", e.hi, math.Log(4.0/3), 1e-12)
}

// The Wilson interval of 190 of 200 at 90 % two-sided has the seed's
// one-sided 95 % lower bound 0.918 (rounded) as its lower end.
func TestWilsonInterval(t *testing.T) {
	lo, hi := WilsonInterval(190, 200, 0.90)
	near(t, "lower", lo, 0.918, 0.0005)
	if !(hi > 0.95 && hi < 1) {
		t.Errorf("upper %v", hi)
	}
	lo, _ = WilsonInterval(20, 20, 0.90)
	near(t, "20/20 lower", lo, 0.881, 0.0005)
}
