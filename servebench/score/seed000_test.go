package score

import (
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/servebench/report"
)

const (
	seedTracePath  = "testdata/seed000/trace.json"
	seedEventsPath = "testdata/seed000/events.jsonl"
)

// seedInputs reads the six-request fixture.
func seedInputs(t *testing.T) (trace, events []byte) {
	t.Helper()
	trace, err := os.ReadFile(seedTracePath)
	if err != nil {
		t.Fatal(err)
	}
	events, err = os.ReadFile(seedEventsPath)
	if err != nil {
		t.Fatal(err)
	}
	return trace, events
}

// scoreSeedEdit scores the fixture with its EVENTS transformed by edit.
func scoreSeedEdit(t *testing.T, edit func(string) string) (*report.Report, error) {
	t.Helper()
	trace, events := seedInputs(t)
	edited := edit(string(events))
	if edited == string(events) {
		t.Fatal("the edit changed nothing")
	}
	return Trace("trace.json", trace, "events.jsonl", []byte(edited), Options{})
}

func wantFloat(t *testing.T, name string, got *float64, want float64) {
	t.Helper()
	if got == nil {
		t.Fatalf("%s = nil, want %v", name, want)
	}
	if math.Abs(*got-want) > 1e-9 {
		t.Fatalf("%s = %v, want %v", name, *got, want)
	}
}

func TestSeedCohortAccounting(t *testing.T) {
	r, err := TraceFiles(seedTracePath, seedEventsPath)
	if err != nil {
		t.Fatal(err)
	}
	if r.Offered != 6 || r.ProtocolSuccesses != 5 || r.Qualified != 3 {
		t.Fatalf("offered %d, successes %d, qualified %d; want 6, 5, 3", r.Offered, r.ProtocolSuccesses, r.Qualified)
	}
	wantFloat(t, "attainment", r.Attainment, 0.5)
	// Wilson 3 of 6 at 95%: p = 0.5, z² = 2.7055434; (0.5 + 0.2254620 −
	// 1.6448536·sqrt(0.0416667 + 0.0187884)) / (1 + 0.4509239).
	wantFloat(t, "wilson_lower", r.WilsonLower, 0.2212599861403489)
	if r.WilsonConfidence != 0.95 {
		t.Fatalf("wilson_confidence %v", r.WilsonConfidence)
	}
	if r.AttainmentKind != "performance+quality" {
		t.Fatalf("attainment kind %q", r.AttainmentKind)
	}
	if r.HorizonMS != 2500 {
		t.Fatalf("horizon %v ms, want 2500", r.HorizonMS)
	}
	wantFloat(t, "offered_rps", r.OfferedRPS, 3.0)       // 6 / 2 s window
	wantFloat(t, "successful_rps", r.SuccessfulRPS, 2.0) // 5 / 2.5 s horizon
	wantFloat(t, "qualified_rps", r.QualifiedRPS, 1.2)   // 3 / 2.5 s horizon
	if r.CapacityEstimateRPS != nil {
		t.Fatal("a single run reported a capacity")
	}
	if !r.Valid || len(r.InvalidReasons) != 0 || r.LoadDelivered() != nil {
		t.Fatalf("valid %v, reasons %v", r.Valid, r.InvalidReasons)
	}
	wantFloat(t, "max_schedule_lag_ms", r.MaxScheduleLagMS, 5)
	wantStatus := map[record.Status]int{record.StatusSuccess: 5, record.StatusTimeout: 1}
	for _, s := range record.Statuses() {
		if got := r.StatusCounts[s]; got != wantStatus[s] {
			t.Fatalf("status_counts[%s] = %d, want %d", s, got, wantStatus[s])
		}
	}
	wantReasons := map[report.Reason]int{report.ReasonStatus: 1, report.ReasonQuality: 1, report.ReasonTTFT: 1}
	for _, reason := range report.Reasons() {
		if got := r.ReasonCounts[reason]; got != wantReasons[reason] {
			t.Fatalf("reason_counts[%s] = %d, want %d", reason, got, wantReasons[reason])
		}
	}
	if q := r.Quality; q.Judged != 6 || q.Passed != 4 || q.Failed != 2 || q.Unscored != 0 {
		t.Fatalf("quality %+v", q)
	}
	if b := r.Backlog; b == nil || b.AtWindowMid != 2 || b.AtWindowEnd != 1 || b.Growing {
		t.Fatalf("backlog %+v, want 2 at mid, 1 at end, not growing", b)
	}
	if r.Inputs.TraceSHA256 == "" || r.Inputs.EventsSHA256 == "" || len(r.Inputs.TraceSHA256) != 64 {
		t.Fatalf("inputs %+v", r.Inputs)
	}
}

func TestSeedPerRequestMetrics(t *testing.T) {
	r, err := TraceFiles(seedTracePath, seedEventsPath)
	if err != nil {
		t.Fatal(err)
	}
	byID := map[string]report.RequestScore{}
	for _, rs := range r.Requests {
		byID[rs.ID] = rs
	}
	r01 := byID["r01"]
	// The worked example: TTFT 240, TPOT (480 − 240) / 4 = 60, E2E 500,
	// last token 480, worst gap 120.
	wantFloat(t, "r01 ttft", r01.TTFTMS, 240)
	wantFloat(t, "r01 tpot", r01.TPOTMS, 60)
	wantFloat(t, "r01 e2e", r01.E2EMS, 500)
	wantFloat(t, "r01 last token", r01.LastTokenMS, 480)
	wantFloat(t, "r01 max gap", r01.MaxGapMS, 120)
	if !r01.Qualified || len(r01.Reasons) != 0 {
		t.Fatalf("r01 %+v", r01)
	}
	r02 := byID["r02"]
	if r02.TPOTMS != nil || !r02.Qualified {
		t.Fatalf("r02: one token must have TPOT nil and still qualify (TPOT not applicable): %+v", r02)
	}
	r03 := byID["r03"]
	wantFloat(t, "r03 ttft", r03.TTFTMS, 420)
	wantFloat(t, "r03 tpot", r03.TPOTMS, 178.0/3)
	if r03.Qualified || len(r03.Reasons) != 1 || r03.Reasons[0] != report.ReasonTTFT {
		t.Fatalf("r03 reasons %v", r03.Reasons)
	}
	r04 := byID["r04"]
	wantFloat(t, "r04 ttft", r04.TTFTMS, 285)
	wantFloat(t, "r04 ttft_from_scheduled", r04.TTFTFromScheduledMS, 290)
	wantFloat(t, "r04 lag", r04.ScheduleLagMS, 5)
	r05 := byID["r05"]
	if r05.Quality != "fail" || len(r05.Reasons) != 1 || r05.Reasons[0] != report.ReasonQuality {
		t.Fatalf("r05 quality %q reasons %v", r05.Quality, r05.Reasons)
	}
	r06 := byID["r06"]
	if r06.Status != record.StatusTimeout || len(r06.Reasons) != 1 || r06.Reasons[0] != report.ReasonStatus {
		t.Fatalf("r06 %+v", r06)
	}
	// A failed request keeps its own times but enters no latency population.
	wantFloat(t, "r06 ttft", r06.TTFTMS, 350)
	wantFloat(t, "r06 e2e", r06.E2EMS, 900)
}

func TestSeedPercentilesNameTheirPopulations(t *testing.T) {
	r, err := TraceFiles(seedTracePath, seedEventsPath)
	if err != nil {
		t.Fatal(err)
	}
	ttft := r.Percentiles[record.MetricTTFT]
	if ttft.N != 5 {
		t.Fatalf("ttft n = %d, want the 5 successes", ttft.N)
	}
	// Sorted [199, 218, 240, 285, 420]: rank ceil(2.5) = 3, ceil(4.5) = 5.
	wantFloat(t, "ttft p50", ttft.P50, 240)
	wantFloat(t, "ttft p90", ttft.P90, 420)
	wantFloat(t, "ttft p99", ttft.P99, 420)
	wantFloat(t, "ttft mean", ttft.Mean, 272.4)
	if !strings.Contains(ttft.Population, "successful requests (5 of 6 offered)") {
		t.Fatalf("ttft population %q", ttft.Population)
	}
	tpot := r.Percentiles[record.MetricTPOT]
	if tpot.N != 4 {
		t.Fatalf("tpot n = %d, want 4 (r02 has one token)", tpot.N)
	}
	wantFloat(t, "tpot p50", tpot.P50, 178.0/3)
	itl := r.Percentiles[record.MetricITL]
	// 16 gaps: [40 40 40, 50 ×7, 58, 60 60 60 60, 120].
	if itl.N != 16 {
		t.Fatalf("itl n = %d, want 16", itl.N)
	}
	wantFloat(t, "itl p50", itl.P50, 50)  // rank 8
	wantFloat(t, "itl p90", itl.P90, 60)  // rank ceil(14.4) = 15
	wantFloat(t, "itl p95", itl.P95, 120) // rank ceil(15.2) = 16
	wantFloat(t, "itl max", itl.Max, 120)
	if !strings.Contains(itl.Population, "16 gaps from 4 requests") {
		t.Fatalf("itl population %q", itl.Population)
	}
	e2e := r.Percentiles[record.MetricE2E]
	wantFloat(t, "e2e p50", e2e.P50, 500) // [258, 435, 500, 579, 628]
	lag := r.Percentiles[record.MetricScheduleLag]
	if lag.N != 6 {
		t.Fatalf("schedule lag n = %d, want every sent request (6)", lag.N)
	}
	wantFloat(t, "lag p50", lag.P50, 1) // [0, 0, 1, 2, 2, 5]
	wantFloat(t, "lag max", lag.Max, 5)
	if q := r.Percentiles[record.MetricClientQueue]; q.N != 0 || q.P50 != nil {
		t.Fatalf("client queue %+v: the format records no slot times", q)
	}
}

// Edit 1 of seed 000: deleting the timeout must not improve attainment; the
// incomplete cohort is rejected.
func TestSeedEditDropTimeoutIsRejected(t *testing.T) {
	_, err := scoreSeedEdit(t, func(s string) string {
		lines := strings.Split(strings.TrimSpace(s), "\n")
		return strings.Join(lines[:5], "\n") + "\n"
	})
	var ie *record.InputError
	if !errors.As(err, &ie) {
		t.Fatalf("want a ScoreInputError, got %v", err)
	}
	if ie.File != "events.jsonl" || !strings.Contains(ie.Msg, `no outcome for scheduled request "r06" (trace.json line 11)`) {
		t.Fatalf("error %q", ie.Error())
	}
}

// Edit 2: a changed judgment is trusted, not discovered: 4 of 6.
func TestSeedEditQualityFlip(t *testing.T) {
	r, err := scoreSeedEdit(t, func(s string) string {
		return strings.Replace(s, `"status": "success", "quality_pass": false}`, `"status": "success", "quality_pass": true}`, 1)
	})
	if err != nil {
		t.Fatal(err)
	}
	if r.Qualified != 4 {
		t.Fatalf("qualified %d, want 4", r.Qualified)
	}
	wantFloat(t, "attainment", r.Attainment, 4.0/6)
	wantFloat(t, "qualified_rps", r.QualifiedRPS, 1.6)
}

// Edit 3: sending r04 at 800 instead of 765 lowers its TTFT to 250 but its
// schedule lag of 40 ms exceeds the 20 ms tolerance: not valid (exit 2).
func TestSeedEditLateSend(t *testing.T) {
	r, err := scoreSeedEdit(t, func(s string) string {
		return strings.Replace(s, `"sent_ms": 765`, `"sent_ms": 800`, 1)
	})
	if err != nil {
		t.Fatal(err)
	}
	r04 := r.Requests[3]
	wantFloat(t, "r04 ttft", r04.TTFTMS, 250)
	wantFloat(t, "r04 lag", r04.ScheduleLagMS, 40)
	if r.Valid || r.LateCount != 1 {
		t.Fatalf("valid %v, late %d", r.Valid, r.LateCount)
	}
	if err := r.LoadDelivered(); !errors.Is(err, report.ErrLoadNotDelivered) {
		t.Fatalf("LoadDelivered = %v", err)
	}
	if len(r.InvalidReasons) != 1 || !strings.Contains(r.InvalidReasons[0], "1 of 6 offered requests were sent more than 20 ms after their scheduled time (max schedule lag 40 ms)") {
		t.Fatalf("invalid reasons %q", r.InvalidReasons)
	}
	// The accounting is still complete.
	if r.Qualified != 3 {
		t.Fatalf("qualified %d", r.Qualified)
	}
}

func TestSeedTTFTFromScheduledCountsTheLag(t *testing.T) {
	trace, events := seedInputs(t)
	opts := Options{SLO: report.SLO{TTFT: 288 * time.Millisecond, TTFTFromScheduled: true}}
	r, err := Trace("trace.json", trace, "events.jsonl", events, opts)
	if err != nil {
		t.Fatal(err)
	}
	// From the schedule r04 waited 1050 − 760 = 290 > 288 ms, while from
	// the send it waited 285: the bound judges the former.
	if rs := r.Requests[3]; rs.Qualified || rs.Reasons[0] != report.ReasonTTFT {
		t.Fatalf("r04 %+v", rs)
	}
}

func TestScoreFilesMissingFile(t *testing.T) {
	_, err := TraceFiles(filepath.Join(t.TempDir(), "nope.json"), seedEventsPath)
	var ie *record.InputError
	if !errors.As(err, &ie) || !strings.HasSuffix(ie.File, "nope.json") {
		t.Fatalf("got %v", err)
	}
}

// The worked example alone: one request sent at 0 with tokens at 240, 280,
// 320, 440 and 480 ms and its terminal at 500.
func TestSeedWorkedExample(t *testing.T) {
	trace := `{"window_ms": [0, 1000], "requests": [{"id": "r01", "scheduled_ms": 0}]}`
	events := `{"id": "r01", "sent_ms": 0, "terminal_ms": 500, "token_ms": [240, 280, 320, 440, 480], "status": "success", "quality_pass": true}`
	r, err := Trace("t.json", []byte(trace), "e.jsonl", []byte(events), Options{})
	if err != nil {
		t.Fatal(err)
	}
	rs := r.Requests[0]
	wantFloat(t, "ttft", rs.TTFTMS, 240)
	wantFloat(t, "tpot", rs.TPOTMS, 60)
	wantFloat(t, "e2e", rs.E2EMS, 500)
	wantFloat(t, "last token", rs.LastTokenMS, 480)
	// The gaps [40, 40, 120, 40], kept in full: the 120 ms pause hidden in
	// the 60 ms mean.
	if got := r.Samples[record.MetricITL]; len(got) != 4 || got[0] != 40 || got[1] != 40 || got[2] != 40 || got[3] != 120 {
		t.Fatalf("gaps (sorted) %v, want [40 40 40 120]", got)
	}
	p99, n, _, err := r.Percentile(record.MetricITL, 99)
	if err != nil || p99 != 120 || n != 4 {
		t.Fatalf("nearest-rank p99 of the gaps = %v (n %d, %v), want 120", p99, n, err)
	}
	wantFloat(t, "mean gap", r.Percentiles[record.MetricITL].Mean, 60)
	wantFloat(t, "p50 gap", r.Percentiles[record.MetricITL].P50, 40)
}
