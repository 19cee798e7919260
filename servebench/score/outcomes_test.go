package score

import (
	"errors"
	"math"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/servebench/report"
	"github.com/servebench/servebench/servebench/schedule"
)

// testSchedule schedules ids at the given times in the window [0, 1000).
func testSchedule(times map[string]float64, ids ...string) *schedule.Schedule {
	s := &schedule.Schedule{Schema: schedule.Schema, Mode: "open", WindowMS: [2]float64{0, 1000}, ScheduleLagToleranceMS: 20}
	for i, id := range ids {
		s.Entries = append(s.Entries, schedule.Entry{ID: id, Row: i, ScheduledMS: times[id]})
	}
	return s
}

// success builds a successful attempt sent at sent with content events at
// times, ending at terminal, with n output tokens (nil: unknown).
func success(id string, scheduled, sent float64, times []float64, terminal float64, n *int) record.Outcome {
	return record.Outcome{ID: id, Attempt: 1, Status: record.StatusSuccess, ScheduledMS: scheduled, SentMS: new(sent),
		ContentMS: times, TerminalMS: terminal, OutputTokens: n}
}

func TestScoreFinalAttemptCountsOnce(t *testing.T) {
	s := testSchedule(map[string]float64{"a": 0, "b": 100}, "a", "b")
	retry := success("a", 0, 300, []float64{400, 450}, 500, new(2))
	retry.Attempt = 2
	first := record.Outcome{ID: "a", Attempt: 1, Status: record.StatusRejected, ScheduledMS: 0, SentMS: new(0.0), TerminalMS: 10, HTTPStatus: new(429)}
	b := success("b", 100, 101, []float64{200}, 250, new(1))
	// The retry is listed before the first attempt: order must not matter.
	r, err := Outcomes(s, []record.Outcome{retry, b, first}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if r.Offered != 2 || r.ProtocolSuccesses != 2 || r.StatusCounts[record.StatusRejected] != 0 {
		t.Fatalf("offered %d successes %d counts %v", r.Offered, r.ProtocolSuccesses, r.StatusCounts)
	}
	// Latency is the final attempt's (TTFT 400 − 300 = 100, and 400 from
	// the schedule); the lag is the first attempt's (sent on time), since a
	// retry is not the generator running late.
	wantFloat(t, "a ttft", r.Requests[0].TTFTMS, 100)
	wantFloat(t, "a ttft from scheduled", r.Requests[0].TTFTFromScheduledMS, 400)
	wantFloat(t, "a lag", r.Requests[0].ScheduleLagMS, 0)
	wantFloat(t, "a sent", r.Requests[0].SentMS, 300)
	if !r.Valid || r.LateCount != 0 {
		t.Fatalf("valid %v late %d", r.Valid, r.LateCount)
	}
}

func TestScoreRejectsMergedOrUnknownRecords(t *testing.T) {
	s := testSchedule(map[string]float64{"a": 0}, "a")
	ok := success("a", 0, 1, []float64{10}, 20, new(1))
	dup := ok
	unknown := ok
	unknown.ID = "zz"
	zero := ok
	zero.Attempt = 0
	for name, c := range map[string]struct {
		outcomes []record.Outcome
		field    string
		msg      string
	}{
		"same attempt twice": {[]record.Outcome{ok, dup}, "attempt", "a second record for attempt 1"},
		"unknown id":         {[]record.Outcome{ok, unknown}, "id", "no request with this ID in the schedule"},
		"attempt zero":       {[]record.Outcome{zero}, "attempt", "want an attempt number >= 1"},
	} {
		_, err := Outcomes(s, c.outcomes, Options{})
		var ie *record.InputError
		if !errors.As(err, &ie) || ie.Field != c.field || !strings.Contains(ie.Msg, c.msg) {
			t.Fatalf("%s: got %v", name, err)
		}
	}
	dupSched := testSchedule(map[string]float64{}, "a", "a")
	if _, err := Outcomes(dupSched, []record.Outcome{ok}, Options{}); err == nil || !strings.Contains(err.Error(), "duplicate request ID in the schedule") {
		t.Fatalf("duplicate schedule IDs: %v", err)
	}
}

func TestScoreMissingRecordCountsAsNotSent(t *testing.T) {
	s := testSchedule(map[string]float64{"a": 0, "b": 100}, "a", "b")
	r, err := Outcomes(s, []record.Outcome{success("a", 0, 1, []float64{10}, 20, new(1))}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if r.Offered != 2 || r.StatusCounts[record.StatusNotSent] != 1 || r.Valid {
		t.Fatalf("offered %d counts %v valid %v", r.Offered, r.StatusCounts, r.Valid)
	}
	if len(r.InvalidReasons) != 2 || !strings.Contains(r.InvalidReasons[0], "1 of 2 offered requests have no outcome record") {
		t.Fatalf("reasons %q", r.InvalidReasons)
	}
	wantFloat(t, "attainment", r.Attainment, 0.5)
	if !strings.Contains(r.Requests[1].Error, "no outcome record") {
		t.Fatalf("error %q", r.Requests[1].Error)
	}
	if ids, _ := r.RequestsWithoutRecord(); len(ids) != 1 || ids[0] != "b" {
		t.Fatalf("requests without record %v", ids)
	}
	// A request the runner itself recorded as not_sent had a record.
	unsent := record.Outcome{ID: "b", Attempt: 1, Status: record.StatusNotSent, ScheduledMS: 100, TerminalMS: 500, Error: "run cancelled before the request was sent"}
	r, err = Outcomes(s, []record.Outcome{success("a", 0, 1, []float64{10}, 20, new(1)), unsent}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if ids, _ := r.RequestsWithoutRecord(); len(ids) != 0 || r.StatusCounts[record.StatusNotSent] != 1 || len(r.InvalidReasons) != 1 {
		t.Fatalf("without record %v, counts %v, reasons %q", ids, r.StatusCounts, r.InvalidReasons)
	}
}

func TestScoreTokenLevelITLNeedsProof(t *testing.T) {
	s := testSchedule(map[string]float64{"proven": 0, "chunked": 0, "unproven": 0}, "proven", "chunked", "unproven")
	proven := success("proven", 0, 0, []float64{100, 110, 130}, 140, new(3))
	proven.EventTokens = []int{1, 1, 1}
	// Three events carrying 1, 3 and 1 tokens: gaps are chunk gaps only.
	chunked := success("chunked", 0, 0, []float64{100, 150, 200}, 210, new(5))
	chunked.EventTokens = []int{1, 3, 1}
	unproven := success("unproven", 0, 0, []float64{100, 120}, 130, new(2))
	r, err := Outcomes(s, []record.Outcome{proven, chunked, unproven}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	itl := r.Percentiles[record.MetricITL]
	if itl.N != 2 || *itl.Max != 20 {
		t.Fatalf("itl %+v: want only the proven request's gaps [10, 20]", itl)
	}
	chunk := r.Percentiles[record.MetricChunkGap]
	if chunk.N != 5 || *chunk.Max != 50 {
		t.Fatalf("chunk gaps %+v: want [10, 20, 50, 50, 20]", chunk)
	}
	// TPOT of the chunked request: (200 − 100) / (5 − 1) = 25; never a
	// split of one chunk's delay.
	wantFloat(t, "chunked tpot", r.Requests[1].TPOTMS, 25)
	if wg := r.Percentiles[report.MetricMaxGap]; wg.N != 3 || *wg.P50 != 20 {
		t.Fatalf("worst gap per request %+v: want [20, 50, 20]", wg)
	}
}

func TestScoreTPOTEligibility(t *testing.T) {
	ids := []string{"one", "unknown", "single-event", "ok"}
	s := testSchedule(map[string]float64{}, ids...)
	outcomes := []record.Outcome{
		success("one", 0, 0, []float64{100}, 110, new(1)),
		success("unknown", 0, 0, []float64{100, 150}, 160, nil),
		success("single-event", 0, 0, []float64{100}, 110, new(4)),
		success("ok", 0, 0, []float64{100, 130, 160}, 170, new(3)),
	}
	r, err := Outcomes(s, outcomes, Options{SLO: report.SLO{TPOT: 40 * time.Millisecond}})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]bool{
		"one":          true,  // a single-token response: TPOT not applicable
		"unknown":      false, // n unknown: TPOT undefined cannot pass
		"single-event": false, // 4 tokens in one event: undefined, cannot pass
		"ok":           true,  // (160 − 100) / 2 = 30 <= 40
	}
	for _, rs := range r.Requests {
		if rs.Qualified != want[rs.ID] {
			t.Fatalf("%s qualified %v, want %v (tpot %v, reasons %v)", rs.ID, rs.Qualified, want[rs.ID], rs.TPOTMS, rs.Reasons)
		}
		if !want[rs.ID] && (len(rs.Reasons) != 1 || rs.Reasons[0] != report.ReasonTPOT || rs.TPOTMS != nil) {
			t.Fatalf("%s: reasons %v tpot %v", rs.ID, rs.Reasons, rs.TPOTMS)
		}
	}
	if d := r.Percentiles[record.MetricTPOT]; d.N != 1 {
		t.Fatalf("tpot population %d, want 1", d.N)
	}
}

func TestScoreQualityFromVerdicts(t *testing.T) {
	s := testSchedule(map[string]float64{}, "pass", "fail", "unscored", "failed-request")
	pass := success("pass", 0, 0, []float64{10}, 20, new(1))
	pass.Quality = &record.Verdict{Pass: true}
	fail := success("fail", 0, 0, []float64{10}, 20, new(1))
	fail.Quality = &record.Verdict{Pass: false, Check: "regex", Evidence: "no match for ^42$"}
	unscored := success("unscored", 0, 0, []float64{10}, 20, new(1))
	failed := record.Outcome{ID: "failed-request", Attempt: 1, Status: record.StatusHTTPError, SentMS: new(0.0), TerminalMS: 5, Error: "HTTP 500"}
	r, err := Outcomes(s, []record.Outcome{pass, fail, unscored, failed}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if r.Qualified != 2 || r.Quality.Judged != 2 || r.Quality.Unscored != 2 || r.AttainmentKind != "performance+partial-quality" {
		t.Fatalf("qualified %d quality %+v kind %q", r.Qualified, r.Quality, r.AttainmentKind)
	}
	if rs := r.Requests[1]; rs.Quality != "fail" || rs.QualityEvidence != "regex: no match for ^42$" || rs.Reasons[0] != report.ReasonQuality {
		t.Fatalf("fail %+v", rs)
	}
	if rs := r.Requests[3]; rs.Error != "HTTP 500" || rs.Reasons[0] != report.ReasonStatus || rs.TTFTMS != nil {
		t.Fatalf("failed request %+v", rs)
	}
	// With no verdict at all, attainment measures performance only.
	r2, _ := Outcomes(testSchedule(map[string]float64{}, "unscored"), []record.Outcome{unscored}, Options{})
	if r2.AttainmentKind != "performance" {
		t.Fatalf("kind %q", r2.AttainmentKind)
	}
}

func TestScoreWindowAndClosedLoop(t *testing.T) {
	s := testSchedule(map[string]float64{"in": 999.999, "out": 1000}, "in", "out")
	in := success("in", 999.999, 1000, []float64{1100}, 1200, new(1))
	out := success("out", 1000, 1000, []float64{1100}, 5000, new(1))
	r, err := Outcomes(s, []record.Outcome{in, out}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if r.Offered != 1 || r.HorizonMS != 1200 {
		t.Fatalf("offered %d horizon %v: the window is half-open and the horizon is the cohort's", r.Offered, r.HorizonMS)
	}
	// A closed loop fixes scheduled times at run time: the outcome's count.
	closed := testSchedule(map[string]float64{"in": 0, "out": 0}, "in", "out")
	closed.Mode = "closed"
	r, err = Outcomes(closed, []record.Outcome{in, out}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if r.Offered != 1 || r.Requests[0].ID != "in" {
		t.Fatalf("closed loop offered %d", r.Offered)
	}
}

func TestScoreClientQueue(t *testing.T) {
	s := testSchedule(map[string]float64{"a": 10}, "a")
	a := success("a", 10, 45, []float64{100}, 120, new(1))
	a.SlotMS = new(40.0)
	r, err := Outcomes(s, []record.Outcome{a}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if d := r.Percentiles[record.MetricClientQueue]; d.N != 1 || *d.Max != 30 {
		t.Fatalf("client queue %+v, want 40 − 10 = 30", d)
	}
}

func TestScoreFailureBeforeAConnection(t *testing.T) {
	// A refused connection: the runner records stream_error with no send
	// time. It stays in the denominator and has no schedule lag; since it
	// never reached the engine it was not delivered load, so the run is not
	// valid evidence for its offered rate.
	s := testSchedule(map[string]float64{"a": 0, "b": 10}, "a", "b")
	refused := record.Outcome{ID: "a", Attempt: 1, Status: record.StatusStreamError, ScheduledMS: 0, TerminalMS: 2, Error: "connection failed: connection refused"}
	b := success("b", 10, 11, []float64{50}, 60, new(1))
	r, err := Outcomes(s, []record.Outcome{refused, b}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if r.Offered != 2 || r.Qualified != 1 || r.Valid || r.Percentiles[record.MetricScheduleLag].N != 1 || r.Requests[0].ScheduleLagMS != nil {
		t.Fatalf("offered %d qualified %d valid %v lag n %d", r.Offered, r.Qualified, r.Valid, r.Percentiles[record.MetricScheduleLag].N)
	}
	if want := []string{"1 of 2 offered requests never reached the engine (no connection was obtained: sent_ms is null) and were not delivered load"}; !slices.Equal(r.InvalidReasons, want) {
		t.Fatalf("invalid reasons %q, want %q", r.InvalidReasons, want)
	}
	refused.ContentMS = []float64{1}
	if _, err := Outcomes(s, []record.Outcome{refused, b}, Options{}); err == nil || !strings.Contains(err.Error(), "content events without a send time") {
		t.Fatalf("content without a send: %v", err)
	}
}

func TestScoreRejectsBrokenClocks(t *testing.T) {
	s := testSchedule(map[string]float64{"a": 0}, "a")
	base := func() record.Outcome {
		o := success("a", 0, 10, []float64{20, 30}, 40, new(2))
		o.FirstContentMS, o.LastContentMS = new(20.0), new(30.0)
		return o
	}
	cases := []struct {
		name  string
		edit  func(*record.Outcome)
		field string
		msg   string
	}{
		{"NaN terminal", func(o *record.Outcome) { o.TerminalMS = math.NaN() }, "terminal_ms", "non-finite time NaN"},
		{"negative send", func(o *record.Outcome) { o.SentMS = new(-1.0) }, "sent_ms", "negative time -1"},
		{"content before send", func(o *record.Outcome) { o.SentMS = new(25.0) }, "content_ms[0]", "before sent 25"},
		{"content after terminal", func(o *record.Outcome) { o.TerminalMS = 25 }, "content_ms[1]", "after terminal 25"},
		{"content out of order", func(o *record.Outcome) { o.ContentMS = []float64{30, 20}; o.FirstContentMS, o.LastContentMS = nil, nil }, "content_ms[1]", "out of order"},
		{"success without content", func(o *record.Outcome) { o.ContentMS = nil; o.FirstContentMS, o.LastContentMS = nil, nil }, "content_ms", "status success with no content event"},
		{"first content disagrees", func(o *record.Outcome) { o.FirstContentMS = new(21.0) }, "first_content_ms", "disagrees with content_ms"},
		{"event tokens length", func(o *record.Outcome) { o.EventTokens = []int{1} }, "event_tokens", "1 entries for 2 content events"},
		{"not_sent with a send", func(o *record.Outcome) { o.Status = record.StatusNotSent }, "sent_ms", "a not_sent record has a send time"},
		{"sent status without send", func(o *record.Outcome) { o.SentMS = nil }, "sent_ms", "missing send time for status success"},
		{"unknown status", func(o *record.Outcome) { o.Status = "fine" }, "status", `unknown status "fine"`},
		{"negative tokens", func(o *record.Outcome) { o.OutputTokens = new(-2) }, "output_tokens", "negative token count"},
	}
	for _, c := range cases {
		o := base()
		c.edit(&o)
		_, err := Outcomes(s, []record.Outcome{o}, Options{})
		var ie *record.InputError
		if !errors.As(err, &ie) || ie.ID != "a" || ie.Field != c.field || !strings.Contains(ie.Msg, c.msg) {
			t.Fatalf("%s: got %v", c.name, err)
		}
	}
	if _, err := Outcomes(s, []record.Outcome{base()}, Options{}); err != nil {
		t.Fatalf("the base record is valid: %v", err)
	}
}

func TestScoreEmptyCohortAndNoSchedule(t *testing.T) {
	if _, err := Outcomes(nil, nil, Options{}); err == nil {
		t.Fatal("nil schedule accepted")
	}
	s := testSchedule(map[string]float64{"a": 5000}, "a")
	if _, err := Outcomes(s, nil, Options{}); err == nil || !strings.Contains(err.Error(), "no request is scheduled in the window") {
		t.Fatalf("empty cohort: %v", err)
	}
}
