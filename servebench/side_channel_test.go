package servebench

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/servebench/report"
	"github.com/servebench/servebench/servebench/schedule"
)

// loggedChannel is a SideChannel that writes its calls into a shared log.
type loggedChannel struct {
	name string
	log  *[]string
}

func (c loggedChannel) Start(context.Context)   { *c.log = append(*c.log, "start "+c.name) }
func (c loggedChannel) Stop(context.Context)    { *c.log = append(*c.log, "stop "+c.name) }
func (c loggedChannel) Fill(rep *report.Report) { *c.log = append(*c.log, "fill "+c.name) }

// Side channels start in order, stop in reverse and fill the report in
// order.
func TestSideChannelsStartInOrderStopInReverse(t *testing.T) {
	var log []string
	cs := sideChannels{loggedChannel{"a", &log}, loggedChannel{"b", &log}, loggedChannel{"c", &log}}
	cs.start(context.Background())
	cs.stop(context.Background())
	cs.fill(&report.Report{})
	want := []string{"start a", "start b", "start c", "stop c", "stop b", "stop a", "fill a", "fill b", "fill c"}
	if !slices.Equal(log, want) {
		t.Fatalf("calls %q, want %q", log, want)
	}
}

// nopObserver is an Observer that does nothing.
type nopObserver struct{}

func (nopObserver) Started(int)           {}
func (nopObserver) Ended(*record.Outcome) {}
func (nopObserver) Finished()             {}

// nopGPU is a GPUSampler that samples nothing.
type nopGPU struct{}

func (nopGPU) StartGPUSampling(context.Context) func() *report.GPUTelemetry { return nil }

// The run's side channels are those its configuration declares, the
// observer last, with the series interval it declares.
func TestSideChannelsFollowTheConfiguration(t *testing.T) {
	plan := &dispatchPlan{n: 2, units: 2}
	describe := func(cfg RunConfig) string {
		l := &LiveRun{cfg: cfg, sched: &schedule.Schedule{Arrival: schedule.ArrivalSpec{Process: schedule.ProcessConstant, RateRPS: 5}}}
		var out []string
		for _, c := range l.channels(plan) {
			switch c := c.(type) {
			case *engineChannel:
				out = append(out, fmt.Sprintf("engine %s every %v", c.url, c.every))
			case *backendChannel:
				out = append(out, fmt.Sprintf("backends %v every %v", c.urls, c.every))
			case *gpuChannel:
				out = append(out, "gpu")
			case *observerChannel:
				out = append(out, fmt.Sprintf("observer %d at %g rps", c.scheduled, c.arrival.RateRPS))
			default:
				out = append(out, fmt.Sprintf("%T", c))
			}
		}
		return fmt.Sprint(out)
	}
	for _, tc := range []struct {
		name string
		cfg  RunConfig
		want string
	}{
		{"nothing declared", RunConfig{}, "[]"},
		{"all four", RunConfig{Observer: nopObserver{}, GPUSampler: nopGPU{}, EngineMetrics: EngineMetricsConfig{BackendURLs: []string{"b1", "b2"}, URL: "e"}},
			"[engine e every 5s backends [b1 b2] every 5s gpu observer 2 at 5 rps]"},
		{"no series", RunConfig{EngineMetrics: EngineMetricsConfig{URL: "e", Interval: -1}}, "[engine e every -1ns]"},
		{"backends alone", RunConfig{EngineMetrics: EngineMetricsConfig{BackendURLs: []string{"b"}, Interval: 250e6}}, "[backends [b] every 250ms]"},
	} {
		if got := describe(tc.cfg); got != tc.want {
			t.Errorf("%s: channels %s, want %s", tc.name, got, tc.want)
		}
	}
}
