package servebench

import (
	"context"
	"slices"

	"github.com/servebench/servebench/servebench/report"
)

// A SideChannel follows a run's measurement beside its requests: the
// engine's Prometheus endpoint, the replicas behind a gateway, the GPUs,
// the run's Observer (package servebench/livemetrics's Metrics is one).
// It is started right before the measurement's first request is sent,
// stopped once its last request has a terminal record, and, once the run
// is scored, writes what it measured into the report.
//
// A run builds its side channels from its RunConfig in one place and
// loops over them: it starts them in order, stops them in reverse and
// has each fill the report in order. A new data source is a type that
// implements SideChannel and one more entry where the list is built; none
// of the run's steps changes.
//
// A side channel never fails a run: a source it cannot read goes into
// the report as what went wrong (a failed scrape's error, a GPU telemetry
// status "unavailable: <reason>"), and the run goes on.
type SideChannel interface {
	// Start begins following the measurement, which begins once every
	// Start has returned (the run's clock starts after them).
	Start(ctx context.Context)
	// Stop ends it. ctx is not cancelled with the run's, so that a
	// cancelled run still closes what it measured.
	Stop(ctx context.Context)
	// Fill writes what the channel measured into the scored report.
	Fill(rep *report.Report)
}

// sideChannels are a run's side channels, in the order they start.
type sideChannels []SideChannel

// channels builds the run's side channels from its configuration:
// the one place a new data source is added. The observer comes last, so
// that it is told right before the first request and first when the last
// has ended.
func (l *LiveRun) channels(plan *dispatchPlan) sideChannels {
	var cs sideChannels
	every := seriesInterval(l.cfg.EngineMetrics.Interval)
	if l.cfg.EngineMetrics.URL != "" {
		cs = append(cs, &engineChannel{url: l.cfg.EngineMetrics.URL, every: every})
	}
	if len(l.cfg.EngineMetrics.BackendURLs) > 0 {
		cs = append(cs, &backendChannel{urls: l.cfg.EngineMetrics.BackendURLs, every: every})
	}
	if l.cfg.GPUSampler != nil {
		cs = append(cs, &gpuChannel{sampler: l.cfg.GPUSampler})
	}
	if l.cfg.Observer != nil {
		cs = append(cs, &observerChannel{observer: l.cfg.Observer, arrival: l.sched.Arrival, scheduled: plan.Len()})
	}
	return cs
}

// start starts every channel, in order.
func (cs sideChannels) start(ctx context.Context) {
	for _, c := range cs {
		c.Start(ctx)
	}
}

// stop stops every channel, in reverse order.
func (cs sideChannels) stop(ctx context.Context) {
	for _, c := range slices.Backward(cs) {
		c.Stop(ctx)
	}
}

// fill has every channel write into rep, in order.
func (cs sideChannels) fill(rep *report.Report) {
	for _, c := range cs {
		c.Fill(rep)
	}
}
