package score

import (
	"math"
	"reflect"
	"testing"

	"github.com/servebench/servebench/servebench/stats"
)

// addAll leaves a population exactly as add one value at a time does:
// the same count, extremes, dense counters, map, exact sum and kept
// samples, and so the same distribution, for values on the 1 µs grid, off
// it, negative, beyond the dense range, with and without the samples
// kept, and with a counter at its cap.
func TestPopulationAddAllMatchesAdd(t *testing.T) {
	values := []float64{12.345, 12.345, 0, -3.5, 0.0005, 1.0 / 3, 20_000, 16_777.215, 16_777.216, 5.001, 35, 4.999}
	for _, keep := range []bool{false, true} {
		one, all := newPopulation(keep), newPopulation(keep)
		for _, v := range values {
			one.add(v)
		}
		all.addAll(values[:1]) // the first value makes the dense pages
		all.addAll(values[1:])
		if one.n != all.n || one.min != all.min || one.max != all.max || !reflect.DeepEqual(one.dense, all.dense) ||
			!reflect.DeepEqual(one.counts, all.counts) || !reflect.DeepEqual(one.sum, all.sum) || !reflect.DeepEqual(one.samples, all.samples) {
			t.Fatalf("keep %v: add gives n %d [%v, %v], addAll n %d [%v, %v]", keep, one.n, one.min, one.max, all.n, all.min, all.max)
		}
		if one.n != len(values) || one.min != -3.5 || one.max != 20_000 {
			t.Fatalf("keep %v: n %d, min %v, max %v", keep, one.n, one.min, one.max)
		}
		a, err := distributionOfPopulation(one, stats.NearestRank, nil)
		if err != nil {
			t.Fatal(err)
		}
		b, err := distributionOfPopulation(all, stats.NearestRank, nil)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(a, b) {
			t.Fatalf("keep %v: distributions differ: %+v and %+v", keep, a, b)
		}
	}
	// Values on the grid alone: the extremes come from the inline path.
	grid := newPopulation(false)
	grid.add(5)
	grid.addAll([]float64{2, 9.5, 4})
	if grid.n != 4 || grid.min != 2 || grid.max != 9.5 || len(grid.counts) != 0 {
		t.Fatalf("on the grid: n %d, min %v, max %v, %d in the map", grid.n, grid.min, grid.max, len(grid.counts))
	}
	// A counter at its cap: the next value goes to the map, as add does.
	one, all := newPopulation(false), newPopulation(false)
	one.add(7)
	all.add(7)
	const u = 7000 // 7 ms in µs
	one.dense[u/densePage][u%densePage], all.dense[u/densePage][u%densePage] = math.MaxUint32, math.MaxUint32
	one.add(7)
	all.addAll([]float64{7})
	if one.counts[7] != 1 || all.counts[7] != 1 || one.n != 2 || all.n != 2 {
		t.Fatalf("at the cap: add counts %d (n %d), addAll %d (n %d)", one.counts[7], one.n, all.counts[7], all.n)
	}
}
