package servebench

import (
	"context"

	"github.com/servebench/servebench/servebench/report"
	"github.com/servebench/servebench/servebench/schedule"
)

// observerChannel tells a run's Observer that the measurement starts
// (with its load point, for a LoadObserver, and the number of scheduled
// requests) and that it has finished. The dispatcher tells it of each
// request; the observer writes nothing into the report.
type observerChannel struct {
	observer  Observer
	arrival   schedule.ArrivalSpec
	scheduled int
}

// Start tells the observer the load point and that the measurement
// starts.
func (c *observerChannel) Start(context.Context) {
	if lo, ok := c.observer.(LoadObserver); ok {
		lo.LoadPoint(c.arrival)
	}
	c.observer.Started(c.scheduled)
}

// Stop tells it the measurement has finished.
func (c *observerChannel) Stop(context.Context) { c.observer.Finished() }

// Fill does nothing: an observer's figures are its own.
func (c *observerChannel) Fill(*report.Report) {}
