package report

// EngineMetrics is what the engine's own Prometheus endpoint said about the
// measurement: it is scraped right before the first request of the window
// is sent and right after the last one ends. Series are named as in the
// exposition, labels sorted: vllm:num_preemptions_total{model_name="m"}.
type EngineMetrics struct {
	// URL is the scraped endpoint.
	URL string `json:"url"`
	// Counters holds each counter's increase over the measurement.
	Counters map[string]float64 `json:"counters,omitempty"`
	// Histograms holds each histogram's observations over the
	// measurement: their count, sum and mean (the engine's own view of,
	// for example, TTFT, to set beside the client's).
	Histograms map[string]HistogramDelta `json:"histograms,omitempty"`
	// Gauges holds each gauge's value at the end.
	Gauges map[string]float64 `json:"gauges,omitempty"`
	// Errors says what could not be scraped or parsed.
	Errors []string `json:"errors,omitempty"`
}

// HistogramDelta is a histogram's observations between two scrapes.
type HistogramDelta struct {
	Count float64  `json:"count"`
	Sum   float64  `json:"sum"`
	Mean  *float64 `json:"mean"`
}

// EngineSeries is the engine's own state through the measurement, scraped
// from its Prometheus endpoint every interval: queue length, running
// requests, KV-cache usage and preemptions under one name whatever the
// engine calls them, and its other gauges by their own names.
type EngineSeries struct {
	// URL is the scraped endpoint, without the URL's userinfo.
	URL string `json:"url"`
	// IntervalMS is the time between scrapes (doubled, and the series
	// thinned to every other sample, whenever it reaches
	// maxEngineSamples, so that it stays bounded).
	IntervalMS float64 `json:"interval_ms"`
	// Engine names the metric names found: "vllm" (also the simulated
	// engine), "sglang", "tgi", "llama.cpp", or "" when none was known.
	Engine string `json:"engine"`
	// Samples are in time order.
	Samples []EngineSample `json:"samples"`
	// FailedScrapes counts the samples whose scrape failed.
	FailedScrapes int `json:"failed_scrapes"`
}

// EngineSample is one scrape. A quantity the engine does not expose is nil.
type EngineSample struct {
	// AtMS is the scrape's time on the run's clock.
	AtMS float64 `json:"at_ms"`
	// QueueLength counts requests waiting for the engine; Running those
	// it is working on (summed over label sets, such as models).
	QueueLength *float64 `json:"queue_length"`
	Running     *float64 `json:"running"`
	// KVCacheUsage is the fraction of the KV cache in use, 0 to 1 (the
	// largest over label sets).
	KVCacheUsage *float64 `json:"kv_cache_usage"`
	// Preemptions counts preemptions since the first sample.
	Preemptions *float64 `json:"preemptions"`
	// Other holds the engine's other gauges by series name (at most
	// MaxOtherGauges, in name order).
	Other map[string]float64 `json:"other,omitempty"`
	// Error says why the scrape failed; the run goes on.
	Error string `json:"error,omitempty"`
}

// BackendMetrics is one replica's metrics over the measurement.
type BackendMetrics struct {
	EngineMetrics
	// PrefixCacheHitRate is the replica's prefix-cache hit rate over the
	// measurement (EngineMetrics.PrefixCacheHitRate: vLLM's
	// vllm:prefix_cache_hits_total over vllm:prefix_cache_queries_total,
	// both in tokens, else SGLang's counters or gauge); nil when the
	// engine exposes none of them or nothing was looked up: absent, never
	// 0.
	PrefixCacheHitRate *float64 `json:"prefix_cache_hit_rate"`
	// Series is the replica's queue, running requests, KV-cache usage and
	// preemptions through the measurement, scraped every
	// RunConfig.EngineMetrics.Interval (nil when that is negative).
	Series *EngineSeries `json:"series,omitempty"`
}

// MaxOtherGauges bounds the unknown gauges an engine sample keeps.
const MaxOtherGauges = 64

// AttachEngineSeries puts the series in the report and, when the report
// has a drift analysis, each interval's mean KV-cache usage beside the
// client's figures.
func (r *Report) AttachEngineSeries(es *EngineSeries) {
	r.EngineSeries = es
	if es == nil || r.Drift == nil {
		return
	}
	for j := range r.Drift.Intervals {
		iv := &r.Drift.Intervals[j]
		start, end := iv.StartMS, iv.StartMS+r.Drift.IntervalMS
		var sum float64
		n := 0
		for _, x := range es.Samples {
			if x.KVCacheUsage != nil && x.AtMS >= start && x.AtMS < end {
				sum += *x.KVCacheUsage
				n++
			}
		}
		iv.KVCacheUsage = nil
		if n > 0 {
			iv.KVCacheUsage = new(sum / float64(n))
		}
	}
}
