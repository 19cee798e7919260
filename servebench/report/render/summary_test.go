package render_test

import (
	"bytes"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/servebench/report"
	"github.com/servebench/servebench/servebench/report/render"
	"github.com/servebench/servebench/servebench/schedule"
)

func f64(v float64) *float64 { return &v }

// dist is a latency distribution of n values with the given p50 and p99.
func dist(n int, p50, p99 float64) report.Distribution {
	return report.Distribution{N: n, P50: f64(p50), P99: f64(p99)}
}

// chatReport is a valid Poisson run of 200 chat requests over 50 s whose
// events were not proven to hold one token: no token gap, 4800 chunk gaps.
func chatReport() *report.Report {
	return &report.Report{
		Offered: 200, Qualified: 195, Attainment: f64(0.975), WilsonLower: f64(0.9483), WilsonConfidence: 0.95,
		WindowMS: [2]float64{0, 50000}, Valid: true, ScheduleLagToleranceMS: 20, MaxScheduleLagMS: f64(3.125),
		Endpoint: record.EndpointChat,
		SLO:      report.SLO{TTFT: 500 * time.Millisecond, TPOT: 40 * time.Millisecond},
		Experiment: &report.Experiment{Arrival: schedule.ArrivalSpec{
			Process: schedule.ProcessPoisson, RateRPS: 4, Burstiness: 1, BurstSize: 1, TimeScale: 1, Seed: 1,
		}},
		Percentiles: map[record.Metric]report.Distribution{
			record.MetricTTFT:     dist(200, 41.25, 88),
			record.MetricTPOT:     dist(198, 12.1, 15.3),
			record.MetricITL:      {N: 0},
			record.MetricChunkGap: dist(4800, 12.1, 30.2),
			record.MetricE2E:      dist(200, 912, 1520.5),
		},
		Throughput: []report.ThroughputRate{
			{Unit: record.ThroughputRequests, PerSecond: 3.98}, {Unit: record.ThroughputOutputTokens, PerSecond: 512.345},
		},
	}
}

func summaryOf(t *testing.T, r *report.Report, n render.SummaryNotes) string {
	t.Helper()
	var buf bytes.Buffer
	if err := render.Summary(&buf, r, n); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}

func TestSummaryOfAValidRunShowsChunkGapsWhenTokenGapsAreNotProven(t *testing.T) {
	got := summaryOf(t, chatReport(), render.SummaryNotes{
		Verdict: []string{"pass: attainment 0.975 >= the required 0.950"},
		Full:    []string{"out/report.txt (also report.json, report.html)"},
	})
	want := `load:        poisson at 4 req/s, 200 offered over a 50 s window (chat)
valid:       yes: every request sent within 20 ms of its schedule (max lag 3.125 ms)
attainment:  97.5% (195 of 200 offered); Wilson lower bound 94.8% at 95% confidence
SLO:         ttft <= 500 ms, tpot <= 40 ms
latency ms          p50        p99        n
  TTFT            41.25         88      200
  TPOT             12.1       15.3      198
  ITL        n/a (token gaps not proven); chunk gap p50 12.1 ms p99 30.2 ms (n 4800)
  E2E               912     1520.5      200
throughput:  3.98 requests/s, 512.345 output tokens/s
verdict:     pass: attainment 0.975 >= the required 0.950
full report: out/report.txt (also report.json, report.html)
`
	if got != want {
		t.Fatalf("summary:\n%s\nwant:\n%s", got, want)
	}
	for _, l := range strings.Split(got, "\n") {
		if len(l) > 100 {
			t.Errorf("line of %d columns: %q", len(l), l)
		}
	}
}

func TestSummaryShowsTokenITLWhenProven(t *testing.T) {
	r := chatReport()
	r.Percentiles[record.MetricITL] = dist(3000, 11.5, 14)
	got := summaryOf(t, r, render.SummaryNotes{})
	if want := "  ITL              11.5         14     3000\n"; !strings.Contains(got, want) {
		t.Fatalf("summary lacks %q:\n%s", want, got)
	}
	if strings.Contains(got, "chunk gap") || strings.Contains(got, "verdict:") || strings.Contains(got, "full report:") {
		t.Fatalf("proven ITL still shows chunk gaps, or empty notes show a verdict or a path:\n%s", got)
	}
}

func TestSummaryOfARunThatIsNotEvidenceListsItsFirstReasons(t *testing.T) {
	r := chatReport()
	r.Valid, r.LateCount = false, 7
	r.InvalidReasons = []string{"7 requests sent late", "2 requests never sent", "the client was saturated", "backlog grew"}
	r.Experiment.Arrival = schedule.ArrivalSpec{Process: schedule.ProcessClosed, Users: 8, ThinkTimeMS: 100}
	got := summaryOf(t, r, render.SummaryNotes{Verdict: []string{"NOT EVIDENCE: the load was not delivered (exit 2)"}})
	for _, want := range []string{
		"load:        closed loop, 8 users, think time 100 ms, 200 offered over a 50 s window (chat)\n",
		"valid:       NO: not evidence for its offered rate (7 of 200 late by more than 20 ms)\n" +
			"             - 7 requests sent late\n" +
			"             - 2 requests never sent\n" +
			"             - the client was saturated\n" +
			"             - and 1 more (in the full report)\n",
		"verdict:     NOT EVIDENCE: the load was not delivered (exit 2)\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("summary lacks %q:\n%s", want, got)
		}
	}
}

func TestSummaryNamesOnlyTheArrivalParametersInUse(t *testing.T) {
	for _, tc := range []struct {
		spec schedule.ArrivalSpec
		want string
	}{
		{schedule.ArrivalSpec{Process: schedule.ProcessGamma, RateRPS: 2.5, Burstiness: 0.25, BurstSize: 1}, "gamma at 2.5 req/s, burstiness 0.25, "},
		{schedule.ArrivalSpec{Process: schedule.ProcessBurst, RateRPS: 8, Burstiness: 1, BurstSize: 4}, "burst at 8 req/s, burst size 4, "},
		{schedule.ArrivalSpec{Process: schedule.ProcessConstant, RateRPS: 10, Burstiness: 1, BurstSize: 1, TimeScale: 1}, "load:        constant at 10 req/s, 200"},
		{schedule.ArrivalSpec{Process: schedule.ProcessReplay, TimeScale: 0.5}, "load:        replay at time scale 0.5, 200"},
		{schedule.ArrivalSpec{Process: schedule.ProcessReplay, TimeScale: 1}, "load:        replay, 200"},
		{schedule.ArrivalSpec{Process: schedule.ProcessClosed, Users: 1}, "load:        closed loop, 1 user, 200"},
	} {
		r := chatReport()
		r.Experiment.Arrival = tc.spec
		if got := summaryOf(t, r, render.SummaryNotes{}); !strings.Contains(got, tc.want) {
			t.Errorf("%s: summary lacks %q:\n%s", tc.spec.Process, tc.want, got)
		}
	}
}

func TestSummaryOfAnEmbeddingsRunSaysWhichMetricsAreUndefined(t *testing.T) {
	r := &report.Report{
		Offered: 10, Qualified: 10, Attainment: f64(1), WilsonLower: f64(0.7411), WilsonConfidence: 0.95,
		WindowMS: [2]float64{0, 2000}, Valid: true, ScheduleLagToleranceMS: 20, MaxScheduleLagMS: f64(1),
		Endpoint:    record.EndpointEmbeddings,
		Percentiles: map[record.Metric]report.Distribution{record.MetricE2E: dist(10, 20, 31)},
		Throughput:  []report.ThroughputRate{{Unit: record.ThroughputRequests, PerSecond: 5}, {Unit: record.ThroughputItems, PerSecond: 40}},
	}
	want := `load:        10 offered over a 2 s window (embeddings)
valid:       yes: every request sent within 20 ms of its schedule (max lag 1 ms)
attainment:  100.0% (10 of 10 offered); Wilson lower bound 74.1% at 95% confidence
SLO:         none declared (a success qualifies)
latency ms          p50        p99        n
  E2E                20         31       10
  TTFT, TPOT, ITL undefined: the embeddings API has no first token
throughput:  5 requests/s, 40 items/s
`
	if got := summaryOf(t, r, render.SummaryNotes{}); got != want {
		t.Fatalf("summary:\n%s\nwant:\n%s", got, want)
	}
}

func TestSummaryWithoutAKnownEndpointGivesTheSuccessfulRequestRate(t *testing.T) {
	r := chatReport()
	r.Endpoint, r.Throughput, r.SuccessfulRPS = "", nil, f64(3.5)
	got := summaryOf(t, r, render.SummaryNotes{})
	if want := "throughput:  3.500 successful req/s\n"; !strings.Contains(got, want) {
		t.Fatalf("summary lacks %q:\n%s", want, got)
	}
}

func TestSummaryCountsFailuresByStatusWithTheMostCommonMessage(t *testing.T) {
	r := chatReport()
	r.StatusCounts = map[record.Status]int{record.StatusSuccess: 194, record.StatusHTTPError: 4, record.StatusTimeout: 2}
	long := `The model "Qwen/Qwen3-0.6B" does not exist; the engine serves only the models listed at /v1/models`
	r.ErrorMessages = &report.ErrorMessages{Distinct: 2, Top: []report.ErrorMessageCount{
		{Status: record.StatusHTTPError, Message: long, Count: 4}, {Status: record.StatusTimeout, Message: "deadline", Count: 2},
	}}
	got := summaryOf(t, r, render.SummaryNotes{})
	want := "attainment:  97.5% (195 of 200 offered); Wilson lower bound 94.8% at 95% confidence\n" +
		"failed:      6 of 200 offered: http_error 4, timeout 2\n" +
		`             most common: 4 × The model "Qwen/Qwen3-0.6B" does not exist; the engine serves on…` + "\n" +
		"SLO:"
	if !strings.Contains(got, want) {
		t.Fatalf("summary lacks\n%s\nin:\n%s", want, got)
	}
	for _, l := range strings.Split(got, "\n") {
		if n := utf8.RuneCountInString(l); n > 100 {
			t.Errorf("line of %d columns: %q", n, l)
		}
	}
	if r.StatusCounts[record.StatusHTTPError] = 0; !strings.Contains(summaryOf(t, r, render.SummaryNotes{}), "failed:      2 of 200 offered: timeout 2\n") {
		t.Fatal("the failure count does not follow the statuses")
	}
}

func TestSummaryWithoutAReportWritesOnlyTheNotes(t *testing.T) {
	got := summaryOf(t, nil, render.SummaryNotes{Verdict: []string{"knee: no tested rate passed", "  (a note)"}, Full: []string{"out/sweep.txt", "out/rate-1/report.txt"}})
	want := `verdict:     knee: no tested rate passed
               (a note)
full report: out/sweep.txt
             out/rate-1/report.txt
`
	if got != want {
		t.Fatalf("summary:\n%s\nwant:\n%s", got, want)
	}
}
