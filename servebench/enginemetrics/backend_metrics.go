package enginemetrics

import (
	"context"

	"github.com/servebench/servebench/servebench/report"
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
		out[i] = report.BackendMetrics{EngineMetrics: *em, PrefixCacheHitRate: em.PrefixCacheHitRate()}
		if i < len(series) {
			out[i].Series = series[i]
		}
	}
	return out
}
