package llmdreport

import (
	"time"

	"github.com/servebench/servebench/servebench/report"
)

// observability puts the engine's scraped series under the engine
// component. A sample's instant is the experiment's start plus the
// sample's time on the run's clock. Nil when the run scraped nothing.
func observability(label, start string, es *report.EngineSeries) *Observability {
	t0, err := time.Parse(time.RFC3339Nano, start)
	if es == nil || len(es.Samples) == 0 || err != nil {
		return nil
	}
	ts := &EngineTimeSeries{
		KVCacheUsage:       series(UnitsFraction, t0, es.Samples, func(s *report.EngineSample) *float64 { return s.KVCacheUsage }),
		NumRequestsRunning: series(UnitsCount, t0, es.Samples, func(s *report.EngineSample) *float64 { return s.Running }),
		NumRequestsWaiting: series(UnitsCount, t0, es.Samples, func(s *report.EngineSample) *float64 { return s.QueueLength }),
		NumPreemptions:     series(UnitsCount, t0, es.Samples, func(s *report.EngineSample) *float64 { return s.Preemptions }),
	}
	return &Observability{Components: []ComponentObservability{{ComponentLabel: label, TimeSeries: ts}}}
}

// series is one quantity over the samples that hold it; nil when none does.
func series(units string, t0 time.Time, samples []report.EngineSample, get func(*report.EngineSample) *float64) *TimeSeries {
	var pts []Point
	for i := range samples {
		if v := get(&samples[i]); v != nil {
			at := t0.Add(time.Duration(samples[i].AtMS * float64(time.Millisecond)))
			pts = append(pts, Point{TS: at.UTC().Format(time.RFC3339Nano), Value: *v})
		}
	}
	if len(pts) == 0 {
		return nil
	}
	return &TimeSeries{Units: units, Series: pts}
}

// clockOrigin is the wall-clock instant that the run's millisecond times
// count from: the dispatch's start, or the experiment's start (before
// warmup) in a report that predates the clock_origin field.
func clockOrigin(x *report.Experiment) string {
	if x.ClockOrigin != "" {
		return x.ClockOrigin
	}
	return x.StartTime
}
