package llmdreport

import (
	"math"
	"testing"

	"github.com/servebench/servebench/servebench/stats"
)

// 1..10 by nearest rank: rank ceil(p/100 * 10).
func TestSampleStatisticsByHand(t *testing.T) {
	s := sampleStatistics(UnitsCount, countsOf(10, 9, 8, 7, 6, 5, 4, 3, 2, 1), stats.NearestRank)
	want := map[string]float64{
		"mean": 5.5, "stddev": math.Sqrt(8.25), "min": 1, "p0p1": 1, "p1": 1, "p5": 1, "p10": 1, "p25": 3,
		"p50": 5, "p75": 8, "p90": 9, "p95": 10, "p99": 10, "p99p9": 10, "max": 10,
	}
	got := map[string]float64{
		"mean": s.Mean, "stddev": *s.Stddev, "min": *s.Min, "p0p1": *s.P0p1, "p1": *s.P1, "p5": *s.P5, "p10": *s.P10,
		"p25": *s.P25, "p50": *s.P50, "p75": *s.P75, "p90": *s.P90, "p95": *s.P95, "p99": *s.P99, "p99p9": *s.P99p9, "max": *s.Max,
	}
	for k, w := range want {
		if math.Abs(got[k]-w) > 1e-12 {
			t.Errorf("%s = %v, want %v", k, got[k], w)
		}
	}
	if sampleStatistics(UnitsMS, countsOf(), "") != nil {
		t.Error("an empty sample gave statistics; it must be left out")
	}
}

func TestSequenceLength(t *testing.T) {
	sl, ok := sequenceLength(countsOf(8, 8, 8))
	if !ok || sl.Distribution != "fixed" || sl.Value != 8 || sl.Min != nil {
		t.Errorf("fixed lengths: %+v", sl)
	}
	sl, ok = sequenceLength(countsOf(2, 4))
	if !ok || sl.Distribution != "other" || sl.Value != 3 || *sl.Min != 2 || *sl.Max != 4 || *sl.StdDev != 1 {
		t.Errorf("2 and 4: %+v", sl)
	}
	if _, ok := sequenceLength(countsOf()); ok {
		t.Error("no lengths: ok")
	}
}

// Lengths 3, 3, 3, 7 held as counts: mean 4, squared deviations 3·1 + 9 =
// 12, so the population standard deviation is √3. Nearest rank: p50 is rank
// ⌈2⌉ = 2 (3), p75 rank 3 (3), p90 rank ⌈3.6⌉ = 4 (7). Linear: p50 sits at
// position 1.5 between ranks 2 and 3 (3 and 3), p90 at 2.7 between ranks 3
// and 4: 3 + 0.7·(7 − 3) = 5.8.
func TestSampleStatisticsFromCounts(t *testing.T) {
	c := countsOf(7, 3, 3, 3)
	s := sampleStatistics(UnitsCount, c, stats.NearestRank)
	if s.Mean != 4 || *s.Stddev != math.Sqrt(3) || *s.Min != 3 || *s.Max != 7 || *s.P50 != 3 || *s.P75 != 3 || *s.P90 != 7 {
		t.Errorf("nearest rank: mean %v sd %v min %v max %v p50 %v p75 %v p90 %v", s.Mean, *s.Stddev, *s.Min, *s.Max, *s.P50, *s.P75, *s.P90)
	}
	l := sampleStatistics(UnitsCount, c, stats.Linear)
	if *l.P50 != 3 || math.Abs(*l.P90-5.8) > 1e-12 {
		t.Errorf("linear: p50 %v p90 %v, want 3 and 5.8", *l.P50, *l.P90)
	}
	if c.sum() != 16 || c.len() != 4 {
		t.Errorf("sum %v of %d, want 16 of 4", c.sum(), c.len())
	}
}
