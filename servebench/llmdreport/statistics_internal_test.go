package llmdreport

import (
	"math"
	"testing"

	"github.com/servebench/servebench/servebench/stats"
)

// 1..10 by nearest rank: rank ceil(p/100 * 10).
func TestSampleStatisticsByHand(t *testing.T) {
	s := sampleStatistics(UnitsCount, []float64{10, 9, 8, 7, 6, 5, 4, 3, 2, 1}, stats.NearestRank)
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
	if sampleStatistics(UnitsMS, nil, "") != nil {
		t.Error("an empty sample gave statistics; it must be left out")
	}
}

func TestSequenceLength(t *testing.T) {
	sl, ok := sequenceLength([]float64{8, 8, 8})
	if !ok || sl.Distribution != "fixed" || sl.Value != 8 || sl.Min != nil {
		t.Errorf("fixed lengths: %+v", sl)
	}
	sl, ok = sequenceLength([]float64{2, 4})
	if !ok || sl.Distribution != "other" || sl.Value != 3 || *sl.Min != 2 || *sl.Max != 4 || *sl.StdDev != 1 {
		t.Errorf("2 and 4: %+v", sl)
	}
	if _, ok := sequenceLength(nil); ok {
		t.Error("no lengths: ok")
	}
}
