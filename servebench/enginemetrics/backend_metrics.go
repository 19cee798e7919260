package enginemetrics

import (
	"context"
	"strings"

	"github.com/servebench/servebench/servebench/report"
)

// The vLLM v1 prefix-cache counters the hit rate is computed from.
const (
	prefixCacheHits    = "vllm:prefix_cache_hits_total"
	prefixCacheQueries = "vllm:prefix_cache_queries_total"
)

// ScrapeEach scrapes every URL in turn.
func ScrapeEach(ctx context.Context, urls []string) []Scrape {
	out := make([]Scrape, len(urls))
	for i, u := range urls {
		snap, err := scrapeMetrics(ctx, u)
		out[i] = Scrape{snap, err}
	}
	return out
}

// StopSamplers stops every sampler and returns their series, in order.
func StopSamplers(samplers []*Sampler) []*report.EngineSeries {
	out := make([]*report.EngineSeries, len(samplers))
	for i, s := range samplers {
		out[i] = s.StopIfStarted()
	}
	return out
}

// Backends compares the scrapes of each replica and adds its series;
// nil without any replica.
func Backends(urls []string, before, after []Scrape, series []*report.EngineSeries) []report.BackendMetrics {
	if len(urls) == 0 {
		return nil
	}
	out := make([]report.BackendMetrics, len(urls))
	for i, u := range urls {
		em := Between(u, before[i], after[i])
		out[i] = report.BackendMetrics{EngineMetrics: *em, PrefixCacheHitRate: prefixCacheHitRate(em.Counters)}
		if i < len(series) {
			out[i].Series = series[i]
		}
	}
	return out
}

// prefixCacheHitRate is Δhits / Δqueries from counter increases keyed by
// series (name and labels).
func prefixCacheHitRate(counters map[string]float64) *float64 {
	var hits, queries float64
	found := false
	for series, v := range counters {
		name, _, _ := strings.Cut(series, "{")
		switch name {
		case prefixCacheHits:
			hits += v
		case prefixCacheQueries:
			queries += v
			found = true
		}
	}
	if !found || queries == 0 {
		return nil
	}
	return new(hits / queries)
}
