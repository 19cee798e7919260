package report

import (
	"regexp"
	"strconv"
)

// vllmCacheConfigInfo is vLLM's gauge whose labels are the KV cache's
// configuration.
const vllmCacheConfigInfo = "vllm:cache_config_info"

// cacheConfigLabel reads one label of a cache_config_info series.
func cacheConfigLabel(series, name string) (int, bool) {
	m := regexp.MustCompile(`[{,]` + regexp.QuoteMeta(name) + `="([0-9]+)"`).FindStringSubmatch(series)
	if m == nil {
		return 0, false
	}
	v, err := strconv.Atoi(m[1])
	return v, err == nil && v > 0
}

// KVCapacityTokens is the engine's KV-cache capacity in tokens, from vLLM's
// vllm:cache_config_info gauge: num_gpu_blocks × block_size, summed over
// its label sets (one per engine of a data-parallel server); ok is false
// when the gauge or either label is missing.
func (em *EngineMetrics) KVCapacityTokens() (int, bool) {
	if em == nil {
		return 0, false
	}
	total, found := 0, false
	for series := range em.Gauges {
		if metricName(series) != vllmCacheConfigInfo {
			continue
		}
		blocks, okBlocks := cacheConfigLabel(series, "num_gpu_blocks")
		size, okSize := cacheConfigLabel(series, "block_size")
		if !okBlocks || !okSize {
			return 0, false
		}
		total += blocks * size
		found = true
	}
	return total, found
}

// cacheSourceLabel reads the cache_source label of a series.
var cacheSourceLabel = regexp.MustCompile(`[{,]cache_source="([^"]*)"`)

// PrefixCacheHitRateByTier is the hit rate per cache tier over the
// measurement, where SGLang's hierarchical cache labels
// sglang:cached_tokens_total by cache_source (device, host, storage): each
// tier's cached tokens over all prompt tokens (sglang:prompt_tokens_total);
// nil when the engine labels no cached tokens by tier or saw no prompt
// token.
func (em *EngineMetrics) PrefixCacheHitRateByTier() map[string]float64 {
	if em == nil {
		return nil
	}
	cached := map[string]float64{}
	var prompt float64
	for series, v := range em.Counters {
		switch metricName(series) {
		case sglangCachedTokens:
			if m := cacheSourceLabel.FindStringSubmatch(series); m != nil {
				cached[m[1]] += v
			}
		case sglangPromptTokens:
			prompt += v
		}
	}
	if len(cached) == 0 || prompt == 0 {
		return nil
	}
	out := make(map[string]float64, len(cached))
	for tier, v := range cached {
		out[tier] = v / prompt
	}
	return out
}
