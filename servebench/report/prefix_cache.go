package report

import "strings"

// PrefixCache is how much of the prompts the engine served from its prefix
// cache, measured two ways: from the cached_tokens each successful request
// reported in its usage, and from the engine's own counters scraped over
// the measurement. Either can be missing; neither is assumed.
type PrefixCache struct {
	// RequestsReporting counts the successful requests that reported
	// cached_tokens (with their prompt_tokens).
	RequestsReporting int `json:"requests_reporting"`
	// CachedTokens sums cached_tokens over those requests.
	CachedTokens int `json:"cached_tokens"`
	// PromptTokens sums prompt_tokens over the same requests.
	PromptTokens int `json:"prompt_tokens"`
	// HitRate is CachedTokens / PromptTokens; nil when no request reported
	// or their prompt tokens are 0.
	HitRate *float64 `json:"hit_rate"`
	// ExpectedCachedTokens sums, over the same requests, the
	// reusable_prompt_tokens their workload rows declared: the prompt
	// tokens an earlier row had already sent, which a prefix cache could
	// serve (the first request of each prefix group counts 0). nil
	// (omitted) unless every reporting request's row declared it.
	ExpectedCachedTokens *int `json:"expected_cached_tokens,omitempty"`
	// ExpectedHitRate is ExpectedCachedTokens / PromptTokens; nil
	// (omitted) without ExpectedCachedTokens or prompt tokens.
	ExpectedHitRate *float64 `json:"expected_hit_rate,omitempty"`
	// ReuseAchieved is CachedTokens / ExpectedCachedTokens: how close the
	// engine came to the reuse the workload makes possible (it can pass 1
	// where prompts match by chance, or fall short where blocks are only
	// partly shared, entries were evicted, or a request arrived while the
	// prefix it shares was still being prefilled). nil (omitted) without
	// ExpectedCachedTokens or when it is 0.
	ReuseAchieved *float64 `json:"reuse_achieved,omitempty"`
	// EngineHitRate is the engine's hit rate over the measurement, from
	// its scraped counters (EngineMetrics.PrefixCacheHitRate); nil when no
	// metrics URL was given or the engine exposes no prefix-cache metric.
	EngineHitRate *float64 `json:"engine_hit_rate"`
}

// The engine metrics a prefix-cache hit rate is read from.
const (
	// vLLM v1: tokens looked up in and found in the prefix cache.
	vllmPrefixCacheHits    = "vllm:prefix_cache_hits_total"
	vllmPrefixCacheQueries = "vllm:prefix_cache_queries_total"
	// SGLang: prompt tokens served from a cache (labelled by
	// cache_source) and all prompt tokens; older builds have only the
	// gauge.
	sglangCachedTokens = "sglang:cached_tokens_total"
	sglangPromptTokens = "sglang:prompt_tokens_total"
	sglangCacheHitRate = "sglang:cache_hit_rate"
)

// PrefixCacheHitRate is the engine's prefix-cache hit rate over the
// measurement, from the counters' increases summed over label sets: vLLM's
// vllm:prefix_cache_hits_total over vllm:prefix_cache_queries_total (both
// in tokens); else SGLang's sglang:cached_tokens_total over
// sglang:prompt_tokens_total; else the mean of SGLang's
// sglang:cache_hit_rate gauge over its label sets at the end. nil when the
// engine exposes none of these, or its counters saw no token (absent,
// never 0).
func (em *EngineMetrics) PrefixCacheHitRate() *float64 {
	if em == nil {
		return nil
	}
	if hits, queries, ok := counterPair(em.Counters, vllmPrefixCacheHits, vllmPrefixCacheQueries); ok {
		return ratio(hits, queries)
	}
	if cached, prompt, ok := counterPair(em.Counters, sglangCachedTokens, sglangPromptTokens); ok {
		return ratio(cached, prompt)
	}
	var sum float64
	n := 0
	for series, v := range em.Gauges {
		if metricName(series) == sglangCacheHitRate {
			sum += v
			n++
		}
	}
	if n == 0 {
		return nil
	}
	return new(sum / float64(n))
}

// counterPair sums the increases of two counters over their label sets;
// ok is false unless both are exposed.
func counterPair(counters map[string]float64, num, den string) (a, b float64, ok bool) {
	var foundA, foundB bool
	for series, v := range counters {
		switch metricName(series) {
		case num:
			a += v
			foundA = true
		case den:
			b += v
			foundB = true
		}
	}
	return a, b, foundA && foundB
}

// metricName is a series' name without its labels.
func metricName(series string) string {
	name, _, _ := strings.Cut(series, "{")
	return name
}

// ratio is a / b; nil when b is 0.
func ratio(a, b float64) *float64 {
	if b == 0 {
		return nil
	}
	return new(a / b)
}

// SetEnginePrefixCacheHitRate puts the engine's hit rate beside the
// requests' own: it creates the report's PrefixCache when the rate is
// known, and removes it when neither a request nor the engine reported.
func (r *Report) SetEnginePrefixCacheHitRate(rate *float64) {
	if r.PrefixCache == nil {
		if rate == nil {
			return
		}
		r.PrefixCache = &PrefixCache{}
	}
	r.PrefixCache.EngineHitRate = rate
	if rate == nil && r.PrefixCache.RequestsReporting == 0 {
		r.PrefixCache = nil
	}
}
