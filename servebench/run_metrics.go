package servebench

import (
	"context"
	"time"

	"github.com/servebench/servebench/servebench/enginemetrics"
)

// startSampler starts scraping through the measurement when the run
// declares a metrics endpoint and does not turn the series off; nil
// otherwise.
func (l *LiveRun) startSampler(ctx context.Context) *enginemetrics.Sampler {
	if l.cfg.MetricsURL == "" || l.cfg.MetricsInterval < 0 {
		return nil
	}
	every := l.cfg.MetricsInterval
	if every == 0 {
		every = enginemetrics.DefaultInterval
	}
	return enginemetrics.StartSampler(ctx, l.cfg.MetricsURL, every, time.Now())
}

// startBackendSamplers scrapes every replica through the measurement, as
// startSampler does the engine; nil when the run scrapes only before and
// after.
func (l *LiveRun) startBackendSamplers(ctx context.Context) []*enginemetrics.Sampler {
	if len(l.cfg.BackendMetricsURLs) == 0 || l.cfg.MetricsInterval < 0 {
		return nil
	}
	every := l.cfg.MetricsInterval
	if every == 0 {
		every = enginemetrics.DefaultInterval
	}
	t0 := time.Now()
	out := make([]*enginemetrics.Sampler, len(l.cfg.BackendMetricsURLs))
	for i, u := range l.cfg.BackendMetricsURLs {
		out[i] = enginemetrics.StartSampler(ctx, u, every, t0)
	}
	return out
}
