package servebench

import (
	"context"
	"strings"
	"time"

	"github.com/servebench/servebench/servebench/report"
)

// The vLLM v1 prefix-cache counters the hit rate is computed from.
const (
	prefixCacheHits    = "vllm:prefix_cache_hits_total"
	prefixCacheQueries = "vllm:prefix_cache_queries_total"
)

// scrapeEach scrapes every URL in turn.
func scrapeEach(ctx context.Context, urls []string) []scrapeResult {
	out := make([]scrapeResult, len(urls))
	for i, u := range urls {
		snap, err := scrapeMetrics(ctx, u)
		out[i] = scrapeResult{snap, err}
	}
	return out
}

// startBackendSamplers scrapes every replica through the measurement, as
// startSampler does the engine; nil when the run scrapes only before and
// after.
func (l *LiveRun) startBackendSamplers(ctx context.Context) []*engineSampler {
	if len(l.cfg.BackendMetricsURLs) == 0 || l.cfg.MetricsInterval < 0 {
		return nil
	}
	every := l.cfg.MetricsInterval
	if every == 0 {
		every = DefaultMetricsInterval
	}
	t0 := time.Now()
	out := make([]*engineSampler, len(l.cfg.BackendMetricsURLs))
	for i, u := range l.cfg.BackendMetricsURLs {
		out[i] = startEngineSampler(ctx, u, every, t0)
	}
	return out
}

// stopSamplers stops every sampler and returns their series, in order.
func stopSamplers(samplers []*engineSampler) []*report.EngineSeries {
	out := make([]*report.EngineSeries, len(samplers))
	for i, s := range samplers {
		out[i] = s.stopIfStarted()
	}
	return out
}

// backendMetrics compares the scrapes of each replica and adds its series;
// nil without any replica.
func backendMetrics(urls []string, before, after []scrapeResult, series []*report.EngineSeries) []report.BackendMetrics {
	if len(urls) == 0 {
		return nil
	}
	out := make([]report.BackendMetrics, len(urls))
	for i, u := range urls {
		em := metricsBetween(u, before[i], after[i])
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
