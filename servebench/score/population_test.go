package score

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/servebench/servebench/servebench/report"
	"github.com/servebench/servebench/servebench/stats"
)

// TestPopulationMatchesSortedSample checks that the counted population
// gives the same percentiles as Percentile on the sorted sample, by both
// methods, with values on the dense microsecond grid, off it (TPOT
// quotients), negative, duplicated, and with the map cap lowered so that
// most values go through the temporary file.
func TestPopulationMatchesSortedSample(t *testing.T) {
	defer func(old int) { spillDistinct = old }(spillDistinct)
	rng := rand.New(rand.NewPCG(7, 11))
	samples := map[string][]float64{
		"one":       {42.5},
		"ties":      {3, 3, 3, 3, 1, 1, 2},
		"grid":      nil,
		"quotients": nil,
		"mixed":     nil,
	}
	for range 5000 {
		samples["grid"] = append(samples["grid"], float64(rng.IntN(40_000))/1000)
		samples["quotients"] = append(samples["quotients"], float64(rng.IntN(3_000_000))/1000/float64(1+rng.IntN(63)))
		v := float64(rng.IntN(5_000_000)-20_000) / 1000
		if rng.IntN(3) == 0 {
			v = float64(rng.IntN(50)) / 1000 // heavy ties near zero
		}
		samples["mixed"] = append(samples["mixed"], v)
	}
	for _, spill := range []int{1 << 16, 64} {
		spillDistinct = spill
		for name, xs := range samples {
			for _, scale := range []float64{1, 1000} { // on and mostly off the dense grid
				pop := newPopulation(false)
				scaled := make([]float64, len(xs))
				for i, x := range xs {
					scaled[i] = x * scale
					pop.add(scaled[i])
				}
				if spill == 64 && name == "quotients" && pop.spill == nil {
					t.Fatalf("%s: expected the population to spill past %d distinct values", name, spill)
				}
				sorted := slices.Sorted(slices.Values(scaled))
				for _, method := range []stats.PercentileMethod{stats.NearestRank, stats.Linear} {
					got, err := distributionOfPopulation(pop, method, nil)
					if err != nil {
						t.Fatal(err)
					}
					for _, q := range []struct {
						p   float64
						got *float64
					}{{50, got.P50}, {90, got.P90}, {95, got.P95}, {99, got.P99}, {100, got.Max}} {
						want, _ := stats.Percentile(sorted, q.p, method)
						if *q.got != want {
							t.Fatalf("%s (scale %v, spill cap %d) %s p%v = %v, sorted sample gives %v", name, scale, spill, method, q.p, *q.got, want)
						}
					}
					if got.N != len(xs) {
						t.Fatalf("%s: N %d, want %d", name, got.N, len(xs))
					}
				}
				pop.close()
			}
		}
	}
}

// TestPopulationMeanIsExact checks the mean against the hand-computed one:
// 0.1 + 0.2 + 0.3 is 0.6 exactly in decimal, and the correctly rounded
// float64 sum is 0.6 (a left-to-right float sum gives 0.6000000000000001).
func TestPopulationMeanIsExact(t *testing.T) {
	pop := newPopulation(false)
	for _, v := range []float64{0.1, 0.2, 0.3} {
		pop.add(v)
	}
	sum, three := 0.6, 3.0 // at run time: a constant 0.6/3 would be exact
	m, ok := pop.mean()
	if !ok || m != sum/three {
		t.Fatalf("mean %v, want %v", m, sum/three)
	}
	if _, ok := newPopulation(false).mean(); ok {
		t.Fatal("an empty population has a mean")
	}
}

// TestPopulationIndexFollowsTheReportOrder: the scorer numbers its
// populations in the order the report lists them.
func TestPopulationIndexFollowsTheReportOrder(t *testing.T) {
	if got, want := reportMetricIndex[:], report.Metrics(); !slices.Equal(got, want) {
		t.Fatalf("population index %v, report order %v", got, want)
	}
}
