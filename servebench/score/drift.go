package score

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"time"

	"github.com/servebench/servebench/internal/numfmt"
	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/servebench/report"
	"github.com/servebench/servebench/servebench/stats"
)

const (
	// DefaultDriftInterval is the interval when Options leaves it 0.
	DefaultDriftInterval = 5 * time.Second
	// minDriftIntervals is the fewest intervals with a value that a trend
	// is tested on.
	minDriftIntervals = 6
	// maxDriftIntervals bounds the report whatever the run's length.
	maxDriftIntervals = 2048
	// driftBinsPerUnit sets the bins' width: e^(1/200), 0.5%.
	driftBinsPerUnit = 200
)

// driftTally counts the per-interval figures one record at a time.
type driftTally struct {
	start, interval float64
	offered         []int
	completed       []int
	outstanding     []int // a difference array: outstanding[j] − outstanding[j−1]
	ttft, tpot      []driftBins
}

// newDriftTally splits the window into intervals of interval ms (or
// longer, to keep at most maxDriftIntervals).
func newDriftTally(window [2]float64, interval float64) *driftTally {
	span := window[1] - window[0]
	interval = max(interval, span/maxDriftIntervals)
	k := int(math.Ceil(span / interval))
	return &driftTally{start: window[0], interval: interval, offered: make([]int, k), completed: make([]int, k),
		outstanding: make([]int, k+1), ttft: make([]driftBins, k), tpot: make([]driftBins, k)}
}

// at is the interval holding time t, or -1 outside the window.
func (d *driftTally) at(t float64) int {
	j := int(math.Floor((t - d.start) / d.interval))
	if t < d.start || j >= len(d.offered) {
		return -1
	}
	return j
}

// firstEndAtOrAfter is the first interval whose end is at or after t.
func (d *driftTally) firstEndAtOrAfter(t float64) int {
	j := int(math.Ceil((t-d.start)/d.interval)) - 1
	return min(max(j, 0), len(d.offered))
}

func (d *driftTally) add(rec *scoreRecord, m *requestMeasures) {
	a := d.at(rec.scheduled)
	if a >= 0 {
		d.offered[a]++
	}
	if rec.hasTerminal {
		if e := d.at(rec.terminal); e >= 0 {
			d.completed[e]++
		}
	}
	if rec.sent != nil {
		from := d.firstEndAtOrAfter(*rec.sent)
		to := len(d.offered)
		if rec.hasTerminal {
			to = d.firstEndAtOrAfter(rec.terminal)
		}
		if from < to {
			d.outstanding[from]++
			d.outstanding[to]--
		}
	}
	if a < 0 || rec.status != record.StatusSuccess {
		return
	}
	if m.hasContent {
		d.ttft[a].add(m.ttft)
	}
	if m.hasTPOT {
		d.tpot[a].add(m.tpot)
	}
}

// report builds the DriftReport.
func (d *driftTally) report(confidence float64) *report.DriftReport {
	r := &report.DriftReport{IntervalMS: d.interval, Confidence: confidence, Intervals: make([]report.DriftInterval, len(d.offered))}
	run := 0
	for j := range r.Intervals {
		run += d.outstanding[j]
		r.Intervals[j] = report.DriftInterval{StartMS: d.start + float64(j)*d.interval, Offered: d.offered[j],
			Completed: d.completed[j], Outstanding: run, TTFTP99MS: d.ttft[j].p99(), TPOTP99MS: d.tpot[j].p99()}
	}
	mid := func(j int) float64 { return d.start + (float64(j)+0.5)*d.interval }
	for _, s := range []struct {
		name string
		get  func(report.DriftInterval) *float64
	}{{"ttft_p99_ms", func(i report.DriftInterval) *float64 { return i.TTFTP99MS }}, {"tpot_p99_ms", func(i report.DriftInterval) *float64 { return i.TPOTP99MS }}} {
		var xs, ys []float64
		for j, iv := range r.Intervals {
			if v := s.get(iv); v != nil {
				xs, ys = append(xs, mid(j)), append(ys, *v)
			}
		}
		r.Trends = append(r.Trends, senTrend(s.name, xs, ys, confidence))
	}
	r.Judged = r.Trends[0].SlopeMSPerHour != nil
	if !r.Judged {
		r.Note = fmt.Sprintf("not judged: fewer than %d intervals of %s ms had at least %d successful requests", minDriftIntervals, numfmt.Compact(d.interval), report.MinDriftSamples)
	}
	return r
}

// senTrend fits Sen's slope to (xs, ys) in ms with the Mann–Kendall
// confidence interval (normal approximation, with the tie correction).
func senTrend(name string, xs, ys []float64, confidence float64) report.DriftTrend {
	t := report.DriftTrend{Metric: name, Intervals: len(xs)}
	n := len(xs)
	if n < minDriftIntervals {
		t.Finding = fmt.Sprintf("%s: not tested, %d intervals with a value (want %d)", name, n, minDriftIntervals)
		return t
	}
	slopes := make([]float64, 0, n*(n-1)/2)
	for i := range n {
		for j := i + 1; j < n; j++ {
			slopes = append(slopes, (ys[j]-ys[i])/(xs[j]-xs[i]))
		}
	}
	slices.Sort(slopes)
	med := medianSorted(slopes)
	// Var(S) for the Mann–Kendall statistic, less the ties' share.
	ties := map[float64]int{}
	for _, y := range ys {
		ties[y]++
	}
	v := float64(n*(n-1)*(2*n+5)) / 18
	for _, c := range slices.Collect(maps.Values(ties)) {
		v -= float64(c*(c-1)*(2*c+5)) / 18
	}
	z := math.Sqrt2 * math.Erfinv(confidence)
	c := z * math.Sqrt(max(v, 0))
	N := float64(len(slopes))
	lo := int(math.Floor((N - c) / 2))
	hi := int(math.Ceil((N + c) / 2))
	lo, hi = min(max(lo, 1), len(slopes)), min(max(hi+1, 1), len(slopes))
	low, high := slopes[lo-1], slopes[hi-1]
	resid := make([]float64, n)
	for i := range n {
		resid[i] = ys[i] - med*xs[i]
	}
	slices.Sort(resid)
	start := medianSorted(resid) + med*xs[0]
	const hour = 3600_000.0
	t.SlopeMSPerHour, t.SlopeLowMSPerHour, t.SlopeHighMSPerHour = new(med*hour), new(low*hour), new(high*hour)
	span := xs[n-1] - xs[0]
	if start > 0 {
		t.Growth, t.GrowthLow, t.GrowthHigh = new(med*span/start), new(low*span/start), new(high*span/start)
		t.Finding = fmt.Sprintf("%s changed %+.1f%% over %s s (%.0f%% interval %+.1f%% to %+.1f%%), from %s ms",
			name, 100**t.Growth, numfmt.Compact(span/1000), 100*confidence, 100**t.GrowthLow, 100**t.GrowthHigh, numfmt.Compact(record.RoundMS(start)))
	} else {
		t.Finding = fmt.Sprintf("%s: the fitted start value %s ms is not positive, so growth is undefined", name, numfmt.Compact(start))
	}
	return t
}

func medianSorted(xs []float64) float64 {
	n := len(xs)
	if n%2 == 1 {
		return xs[n/2]
	}
	return (xs[n/2-1] + xs[n/2]) / 2
}

// driftBins counts values in bins 0.5% wide, to give an interval's p99 in
// bounded memory.
type driftBins struct {
	n    int
	max  float64
	bins map[int32]int
}

func (b *driftBins) add(v float64) {
	if b.bins == nil {
		b.bins = map[int32]int{}
	}
	if b.n == 0 || v > b.max {
		b.max = v
	}
	b.n++
	key := int32(math.MinInt32)
	if v > 0 {
		key = int32(math.Floor(math.Log(v) * driftBinsPerUnit))
	}
	b.bins[key]++
}

// p99 is the upper edge of the bin holding the nearest-rank p99, capped at
// the largest value; nil with fewer than MinDriftSamples values.
func (b *driftBins) p99() *float64 {
	if b.n < report.MinDriftSamples {
		return nil
	}
	rank := percentileRanks(b.n, 99, stats.NearestRank)[0]
	cum := 0
	for _, k := range slices.Sorted(maps.Keys(b.bins)) {
		cum += b.bins[k]
		if cum >= rank {
			if k == math.MinInt32 {
				return new(0.0)
			}
			return new(record.RoundMS(min(math.Exp(float64(k+1)/driftBinsPerUnit), b.max)))
		}
	}
	return new(b.max)
}
