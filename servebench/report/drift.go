package report

// DriftReport follows the client's figures over the run in fixed intervals
// of scheduled time and tests whether tail latency trended upward: the
// slow degradation a soak run is for.
type DriftReport struct {
	// IntervalMS is the interval length.
	IntervalMS float64 `json:"interval_ms"`
	// Intervals has one entry per interval of the arrival window, in
	// order (at most maxDriftIntervals: a longer window gets longer
	// intervals).
	Intervals []DriftInterval `json:"intervals"`
	// Trends tests p99 TTFT and p99 TPOT for a trend over the intervals.
	Trends []DriftTrend `json:"trends"`
	// Judged is false when too few intervals had a p99 to test; Note then
	// says why.
	Judged bool   `json:"judged"`
	Note   string `json:"note,omitempty"`
	// Confidence is the confidence level of the slopes' intervals.
	Confidence float64 `json:"confidence"`
}

// DriftInterval is the client's view of one interval.
type DriftInterval struct {
	// StartMS is the interval's start on the run's clock.
	StartMS float64 `json:"start_ms"`
	// Offered counts the requests scheduled in the interval; Completed
	// those whose terminal record fell in it (whatever their status);
	// Outstanding those sent and not yet ended at its end.
	Offered     int `json:"offered"`
	Completed   int `json:"completed"`
	Outstanding int `json:"outstanding"`
	// TTFTP99MS and TPOTP99MS are the nearest-rank p99 over the successful
	// requests scheduled in the interval, to within 0.5% (the values are
	// counted in bins 0.5% wide, and the bin's upper edge, capped at the
	// interval's largest value, is reported); nil with fewer than
	// MinDriftSamples values.
	TTFTP99MS *float64 `json:"ttft_p99_ms"`
	TPOTP99MS *float64 `json:"tpot_p99_ms"`
	// KVCacheUsage is the engine's mean KV-cache usage (0 to 1) over the
	// scrapes in the interval, when the run scraped its metrics.
	KVCacheUsage *float64 `json:"kv_cache_usage,omitempty"`
}

// DriftTrend is one metric's trend over the intervals: Sen's slope (the
// median of the slopes between every pair of intervals, robust to a few
// outlying intervals) with the Mann–Kendall confidence interval, and the
// growth over the run it implies, relative to the fitted value at the
// first interval.
type DriftTrend struct {
	// Metric names the per-interval series ("ttft_p99_ms", "tpot_p99_ms").
	Metric string `json:"metric"`
	// Intervals counts the intervals that had a value.
	Intervals int `json:"intervals"`
	// SlopeMSPerHour and its interval [Low, High].
	SlopeMSPerHour     *float64 `json:"slope_ms_per_hour"`
	SlopeLowMSPerHour  *float64 `json:"slope_low_ms_per_hour"`
	SlopeHighMSPerHour *float64 `json:"slope_high_ms_per_hour"`
	// Growth is slope × span / start value: 0.3 reads "grew 30% over the
	// run". GrowthLow and GrowthHigh come from the slope's interval.
	Growth     *float64 `json:"growth"`
	GrowthLow  *float64 `json:"growth_low"`
	GrowthHigh *float64 `json:"growth_high"`
	// Finding says the result in words.
	Finding string `json:"finding"`
}

// Drifting reports whether the trend is significant (its growth interval
// lies above zero) and its growth exceeds maxGrowth.
func (t DriftTrend) Drifting(maxGrowth float64) bool {
	return t.GrowthLow != nil && t.Growth != nil && *t.GrowthLow > 0 && *t.Growth > maxGrowth
}

// MinDriftSamples is the fewest values a drift interval's p99 is given on.
const MinDriftSamples = 10
