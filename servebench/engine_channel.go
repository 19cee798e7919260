package servebench

import (
	"context"
	"time"

	"github.com/servebench/servebench/servebench/enginemetrics"
	"github.com/servebench/servebench/servebench/report"
)

// engineChannel is the engine's Prometheus endpoint as a side channel:
// scraped right before and right after the measurement, for the report's
// EngineMetrics and the engine's prefix-cache hit rate, and every every
// through it, for its EngineSeries (none when every is negative).
type engineChannel struct {
	url   string
	every time.Duration

	before, after enginemetrics.Scrape
	sampler       *enginemetrics.Sampler
	series        *report.EngineSeries
}

// Start scrapes the engine once and starts its series.
func (c *engineChannel) Start(ctx context.Context) {
	c.before = enginemetrics.ScrapeOnce(ctx, c.url)
	if c.every >= 0 {
		c.sampler = enginemetrics.StartSampler(ctx, c.url, c.every, time.Now())
	}
}

// Stop ends the series and scrapes the engine again.
func (c *engineChannel) Stop(ctx context.Context) {
	c.series = c.sampler.StopIfStarted()
	c.after = enginemetrics.ScrapeOnce(ctx, c.url)
}

// Fill sets the report's EngineMetrics, the engine's prefix-cache hit
// rate and the EngineSeries.
func (c *engineChannel) Fill(rep *report.Report) {
	rep.EngineMetrics = enginemetrics.Between(c.url, c.before, c.after)
	rep.SetEnginePrefixCacheHitRate(rep.EngineMetrics.PrefixCacheHitRate())
	rep.SpeculativeDecoding = rep.EngineMetrics.SpeculativeDecoding()
	rep.AttachEngineSeries(c.series)
}

// seriesInterval is how often a run's Prometheus endpoints are scraped
// through the measurement: RunConfig.EngineMetrics.Interval, or
// enginemetrics.DefaultInterval when that is 0. Negative means never.
func seriesInterval(configured time.Duration) time.Duration {
	if configured == 0 {
		return enginemetrics.DefaultInterval
	}
	return configured
}
