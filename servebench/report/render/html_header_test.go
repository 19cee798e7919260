package render_test

import (
	"strings"
	"testing"

	"github.com/servebench/servebench/servebench/report"
	"github.com/servebench/servebench/servebench/schedule"
)

// headerRow returns the header's value for label, and false when the
// header has no such row.
func headerRow(page, label string) (string, bool) {
	head, _, _ := strings.Cut(page, "</header>")
	_, after, ok := strings.Cut(head, "<dt>"+label+"</dt><dd>")
	if !ok {
		return "", false
	}
	v, _, _ := strings.Cut(after, "</dd>")
	return v, true
}

// The arrival row names only the parameters of the process that was
// used: a Poisson run records burstiness, burst size and time scale at 1
// without using them.
func TestHTMLHeaderShowsOnlyTheArrivalParametersUsed(t *testing.T) {
	for _, c := range []struct {
		spec schedule.ArrivalSpec
		want string
	}{
		{schedule.ArrivalSpec{Process: schedule.ProcessPoisson, RateRPS: 16, Burstiness: 1, BurstSize: 1, TimeScale: 1, Seed: 7}, "poisson, 16 req/s, seed 7"},
		{schedule.ArrivalSpec{Process: schedule.ProcessGamma, RateRPS: 16, Burstiness: 0.25, BurstSize: 1, TimeScale: 1, Seed: 7}, "gamma, 16 req/s, burstiness 0.25, seed 7"},
		{schedule.ArrivalSpec{Process: schedule.ProcessBurst, RateRPS: 16, Burstiness: 1, BurstSize: 4, TimeScale: 1, Seed: 7}, "burst, 16 req/s, burst size 4, seed 7"},
		{schedule.ArrivalSpec{Process: schedule.ProcessReplay, Burstiness: 1, BurstSize: 1, TimeScale: 0.5, Seed: 7}, "replay of stored timestamps, time scale 0.5, seed 7"},
	} {
		r := smallHTMLReport(t)
		r.Experiment = &report.Experiment{RunID: "run", Arrival: c.spec}
		if got, _ := headerRow(renderHTML(t, r), "Arrival"); got != c.want {
			t.Errorf("%s: arrival %q, want %q", c.spec.Process, got, c.want)
		}
	}
}

// An engine servebench did not start records no engine: the header has
// no Engine row then, and one when it has.
func TestHTMLHeaderHidesAnAbsentEngine(t *testing.T) {
	r := smallHTMLReport(t)
	r.Experiment = &report.Experiment{RunID: "run"}
	if v, ok := headerRow(renderHTML(t, r), "Engine"); ok {
		t.Errorf("Engine row %q for a run without engine information", v)
	}
	r.Experiment.Engine = &report.EngineInfo{Kind: "vllm", Version: "0.6.3"}
	if v, _ := headerRow(renderHTML(t, r), "Engine"); v != "vllm, version 0.6.3" {
		t.Errorf("Engine row %q", v)
	}
}

// Timeouts read in the largest unit that keeps them exact.
func TestHTMLHeaderWritesTimeoutsInReadableUnits(t *testing.T) {
	for _, c := range []struct {
		t    report.Timeouts
		want string
	}{
		{report.Timeouts{IdleMS: 10000, TotalMS: 300000}, "first token none, idle 10 s, total 5 min"},
		{report.Timeouts{FirstTokenMS: 250, IdleMS: 1500, TotalMS: 150000}, "first token 250 ms, idle 1.5 s, total 2 min 30 s"},
		{report.Timeouts{FirstTokenMS: 60000, IdleMS: 3600000, TotalMS: 5400000}, "first token 1 min, idle 1 h, total 1 h 30 min"},
		{report.Timeouts{TotalMS: 3630000}, "first token none, idle none, total 60 min 30 s"},
	} {
		r := smallHTMLReport(t)
		r.Experiment = &report.Experiment{RunID: "run", Timeouts: c.t}
		if got, _ := headerRow(renderHTML(t, r), "Timeouts"); got != c.want {
			t.Errorf("timeouts %+v: %q, want %q", c.t, got, c.want)
		}
	}
}
