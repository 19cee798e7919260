package servebench

import (
	"context"
	"time"

	"github.com/servebench/servebench/servebench/enginemetrics"
	"github.com/servebench/servebench/servebench/report"
)

// backendChannel is the Prometheus endpoints of the replicas behind a
// gateway as a side channel: each scraped right before and right after
// the measurement and every every through it (never when every is
// negative), for the report's BackendMetrics.
type backendChannel struct {
	urls  []string
	every time.Duration

	before, after []enginemetrics.Scrape
	samplers      []*enginemetrics.Sampler
	series        []*report.EngineSeries
}

// Start scrapes every replica once and starts their series.
func (c *backendChannel) Start(ctx context.Context) {
	c.before = enginemetrics.ScrapeEach(ctx, c.urls)
	if c.every < 0 {
		return
	}
	t0 := time.Now()
	c.samplers = make([]*enginemetrics.Sampler, len(c.urls))
	for i, u := range c.urls {
		c.samplers[i] = enginemetrics.StartSampler(ctx, u, c.every, t0)
	}
}

// Stop ends the series and scrapes every replica again.
func (c *backendChannel) Stop(ctx context.Context) {
	c.series = enginemetrics.StopSamplers(c.samplers)
	c.after = enginemetrics.ScrapeEach(ctx, c.urls)
}

// Fill sets the report's BackendMetrics.
func (c *backendChannel) Fill(rep *report.Report) {
	rep.BackendMetrics = enginemetrics.Backends(c.urls, c.before, c.after, c.series)
}
