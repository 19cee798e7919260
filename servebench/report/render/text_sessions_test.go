package render_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/servebench/servebench/servebench/report"
	"github.com/servebench/servebench/servebench/report/render"
)

// agentReport is chatReport with 205 sessions (190 qualified, 5
// truncated) and a short steady state.
func agentReport() *report.Report {
	r := chatReport()
	r.Sessions = &report.Sessions{Offered: 205, Completed: 200, Truncated: 5, Qualified: 190, Attainment: f64(0.95), WilsonLower: f64(0.9181)}
	r.SteadyState = &report.SteadyState{StartMS: 1000, EndMS: 5000, PeakInFlight: 10, InFlightFloor: 10, Requests: 10, Successes: 10,
		RequestsPerSecond: f64(2.5), OutputTokensPerSecond: f64(12.5),
		TTFT: report.SteadyLatency{P50: f64(500), P99: f64(1000)}, TPOT: report.SteadyLatency{P50: f64(825), P99: f64(950)},
		E2E: report.SteadyLatency{P50: f64(4000), P99: f64(4000)}, Short: true,
		ShortReason: "the steady window lasts 4000 ms, less than max(10 s, 10% of the 8000 ms run) = 10000 ms"}
	return r
}

func TestSummaryShowsSessionsAndTheSteadyState(t *testing.T) {
	got := summaryOf(t, agentReport(), render.SummaryNotes{})
	for _, want := range []string{
		"attainment:  97.5% (195 of 200 offered); Wilson lower bound 94.8% at 95% confidence\nsessions:    95.0% (190 of 200; 5 truncated); Wilson lower bound 91.8%\n",
		"\nsteady:      [1000, 5000) ms, >= 10 of 10 in flight, 2.500 req/s, p99 TTFT 1000 E2E 4000 ms; SHORT\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("summary lacks %q:\n%s", want, got)
		}
	}
	for _, l := range strings.Split(got, "\n") {
		if len(l) > 100 {
			t.Errorf("line of %d columns: %q", len(l), l)
		}
	}
	if got := summaryOf(t, chatReport(), render.SummaryNotes{}); strings.Contains(got, "sessions:") || strings.Contains(got, "steady:") {
		t.Errorf("a run without sessions or steady state shows them:\n%s", got)
	}
}

func TestTextShowsSessionsAndTheSteadyState(t *testing.T) {
	var buf bytes.Buffer
	if err := render.Text(&buf, agentReport()); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"Session attainment:                  95.0% (190 of 200 judged; 205 offered, 5 truncated, 200 completed); Wilson lower bound 91.8% at 95% confidence\n",
		"Steady state:                        [1000, 5000) ms (4 s) with >= 10 in flight (peak 10): 10 requests, 2.500 req/s, 12.500 output tok/s; " +
			"TTFT p50 500 p99 1000 ms, TPOT p50 825 p99 950 ms, E2E p50 4000 p99 4000 ms\n",
		"  SHORT:                             the steady window lasts 4000 ms, less than max(10 s, 10% of the 8000 ms run) = 10000 ms\n",
	} {
		if !strings.Contains(buf.String(), want) {
			t.Errorf("text lacks %q:\n%s", want, buf.String())
		}
	}
}
