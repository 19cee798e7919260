package score

import (
	"encoding/json"
	"errors"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/servebench/report"
	"github.com/servebench/servebench/servebench/schedule"
)

// scoreOne scores a one-request trace: window [0, 1000), request "a"
// scheduled at 0, with the given extra trace fields (each followed by a
// comma) and the given EVENTS line.
func scoreOne(t *testing.T, traceFields, event string, opts Options) (*report.Report, error) {
	t.Helper()
	trace := `{"window_ms": [0, 1000], ` + traceFields + `"requests": [{"id": "a", "scheduled_ms": 0}]}`
	return Trace("t.json", []byte(trace), "e.jsonl", []byte(event+"\n"), opts)
}

// wantInputError fails unless err is a *record.InputError for file and
// field whose message contains msg.
func wantInputError(t *testing.T, err error, file, field, msg string) *record.InputError {
	t.Helper()
	var ie *record.InputError
	if !errors.As(err, &ie) {
		t.Fatalf("want a ScoreInputError for %s field %q, got %v", file, field, err)
	}
	if ie.File != file || ie.Field != field || !strings.Contains(ie.Msg, msg) {
		t.Fatalf("got %q (file %q, field %q), want file %q, field %q, message containing %q", ie.Error(), ie.File, ie.Field, file, field, msg)
	}
	return ie
}

func TestReviewFluidityTokenOnItsDeadlineMeetsIt(t *testing.T) {
	// First-token deadline 300 ms, cadence 16.7 ms, sent at 0: the
	// deadlines are 300, 316.7, 333.4 and 350.1 ms. Each token arrives
	// exactly on its deadline (times recorded at microsecond resolution),
	// so by the rule "a token at or before its deadline meets it" all four
	// meet: 4 deadlines, 0 missed, index 4/4 = 1.
	r, err := scoreOne(t, `"fluidity": {"first_token_deadline_ms": 300, "cadence_ms": 16.7}, `,
		`{"id": "a", "sent_ms": 0, "terminal_ms": 400, "token_ms": [300, 316.7, 333.4, 350.1], "status": "success", "quality_pass": true}`,
		Options{})
	if err != nil {
		t.Fatal(err)
	}
	if f := r.Fluidity; f == nil || f.Deadlines != 4 || f.MissedDeadlines != 0 {
		t.Fatalf("fluidity %+v, want 4 deadlines and none missed", f)
	}
	wantFloat(t, "fluidity index", r.Fluidity.Index, 1)

	// Cadence 33.333 ms: the second deadline is 300 + 33.333 = 333.333 ms
	// and the second token arrives at 333.333 ms: both tokens meet.
	r, err = scoreOne(t, `"fluidity": {"first_token_deadline_ms": 300, "cadence_ms": 33.333}, `,
		`{"id": "a", "sent_ms": 0, "terminal_ms": 400, "token_ms": [300, 333.333], "status": "success", "quality_pass": true}`,
		Options{})
	if err != nil {
		t.Fatal(err)
	}
	if f := r.Fluidity; f.Deadlines != 2 || f.MissedDeadlines != 0 {
		t.Fatalf("fluidity %+v, want 2 deadlines and none missed", f)
	}

	// A stall of exactly two cadences: deadlines 300, 316.7, 333.4, 350.1;
	// the fourth token comes at 383.5 = 350.1 + 2 × 16.7. It crossed 350.1
	// and 366.8 and arrives at 383.5: 1 + floor(33.4 / 16.7) = 3 misses,
	// as Etalon counts them ((gap − slack) // cadence = 50.1 // 16.7 = 3
	// with no slack banked). Total 3 met + 3 missed = 6 deadlines.
	r, err = scoreOne(t, `"fluidity": {"first_token_deadline_ms": 300, "cadence_ms": 16.7}, `,
		`{"id": "a", "sent_ms": 0, "terminal_ms": 400, "token_ms": [300, 316.7, 333.4, 383.5], "status": "success", "quality_pass": true}`,
		Options{})
	if err != nil {
		t.Fatal(err)
	}
	if f := r.Fluidity; f.Deadlines != 6 || f.MissedDeadlines != 3 {
		t.Fatalf("fluidity %+v, want 3 missed of 6", f)
	}
}

func TestReviewRuleDurationsBelowTheRecordsResolutionAreRejected(t *testing.T) {
	event := `{"id": "a", "sent_ms": 0, "terminal_ms": 500, "token_ms": [240, 400], "status": "success", "quality_pass": true}`
	// A 100 ns cadence is below the records' 1 µs resolution: the report
	// would state it as 0 ms and every deadline count would divide by it.
	_, err := scoreOne(t, ``, event, Options{Fluidity: &FluidityRule{FirstTokenDeadline: 100 * time.Millisecond, Cadence: 100 * time.Nanosecond}})
	if err == nil || !strings.Contains(err.Error(), "fluidity") || !strings.Contains(err.Error(), "1 µs") {
		t.Fatalf("a 100 ns cadence was accepted (or the error does not say why): %v", err)
	}
	// A TTFT bound of 400 ns is below the resolution as well: the TTFT of
	// 240 ms must not qualify as if no bound had been declared.
	_, err = scoreOne(t, ``, event, Options{SLO: report.SLO{TTFT: 400 * time.Nanosecond}})
	if err == nil || !strings.Contains(err.Error(), "1 µs") {
		t.Fatalf("a 400 ns TTFT bound was accepted (or the error does not say why): %v", err)
	}
	// The same bound in the trace, 0.0004 ms, names the trace's field.
	_, err = scoreOne(t, `"slo": {"ttft_ms": 0.0004}, `, event, Options{})
	wantInputError(t, err, "t.json", "slo.ttft_ms", "0.001 ms")
	// One microsecond is the smallest bound and is judged: TTFT 240 ms
	// fails it.
	r, err := scoreOne(t, `"slo": {"ttft_ms": 0.001}, `, event, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if r.Qualified != 0 || r.ReasonCounts[report.ReasonTTFT] != 1 {
		t.Fatalf("qualified %d, ttft failures %d: want 0 and 1", r.Qualified, r.ReasonCounts[report.ReasonTTFT])
	}
}

func TestReviewExtremeTimesNeverMakeTheReportNonFinite(t *testing.T) {
	ok := `{"id": "a", "sent_ms": 0, "terminal_ms": 500, "token_ms": [240], "status": "success", "quality_pass": true}`
	// A window of 1e-320 ms is finite and positive but shorter than the
	// records' 1 µs resolution; the offered rate 1 / (1e-320 / 1000) s
	// would be +Inf.
	trace := `{"window_ms": [0, 1e-320], "requests": [{"id": "a", "scheduled_ms": 0}]}`
	_, err := Trace("t.json", []byte(trace), "e.jsonl", []byte(ok+"\n"), Options{})
	wantInputError(t, err, "t.json", "window_ms", "0.001 ms")
	// One microsecond is the shortest window, also away from 0, where
	// 1000.001 − 1000 is 0.0009999999999763531 in floating point.
	trace = `{"window_ms": [1000, 1000.001], "requests": [{"id": "a", "scheduled_ms": 1000}]}`
	late := `{"id": "a", "sent_ms": 1000, "terminal_ms": 1500, "token_ms": [1240], "status": "success", "quality_pass": true}`
	if _, err := Trace("t.json", []byte(trace), "e.jsonl", []byte(late+"\n"), Options{}); err != nil {
		t.Fatalf("a 1 µs window was rejected: %v", err)
	}
	// The same window given as an option is rejected too.
	_, err = scoreOne(t, ``, ok, Options{WindowMS: &[2]float64{0, 1e-320}})
	if err == nil || !strings.Contains(err.Error(), "window") {
		t.Fatalf("a 1e-320 ms window option was accepted: %v", err)
	}
	// A terminal time of 1.7e308 ms is finite, but e − d in nanoseconds
	// overflows to +Inf. Past 2^53 µs (about 285 years) a float64 cannot
	// hold the records' microsecond resolution, so such a time is
	// malformed.
	_, err = scoreOne(t, ``, `{"id": "a", "sent_ms": 0, "terminal_ms": 1.7e308, "token_ms": [240], "status": "success", "quality_pass": true}`, Options{})
	wantInputError(t, err, "e.jsonl", "terminal_ms", "2^53 µs")
	// A scheduled time beyond it is rejected in the trace.
	trace = `{"window_ms": [0, 1000], "requests": [{"id": "a", "scheduled_ms": 0}, {"id": "b", "scheduled_ms": 1e300}]}`
	_, err = Trace("t.json", []byte(trace), "e.jsonl", []byte(ok+"\n"), Options{})
	wantInputError(t, err, "t.json", "requests[1].scheduled_ms", "2^53 µs")
	// The runner's records obey the same bound.
	s := &schedule.Schedule{Schema: schedule.Schema, Mode: "open", WindowMS: [2]float64{0, 1000}, ScheduleLagToleranceMS: 20,
		Entries: []schedule.Entry{{ID: "a", ScheduledMS: 0}}}
	one := 1
	_, err = Outcomes(s, []record.Outcome{{ID: "a", Attempt: 1, Status: record.StatusSuccess, SentMS: new(0.0), ContentMS: []float64{240},
		OutputTokens: &one, TerminalMS: 1e300}}, Options{})
	wantInputError(t, err, "", "terminal_ms", "2^53 µs")

	// Just inside the bound, 9e12 ms (about 285 years), the times are
	// accepted and every figure stays finite: E2E 9e12 − 0 = 9e12 ms for
	// both requests, mean (9e12 + 9e12) / 2 = 9e12, and the report encodes.
	trace = `{"window_ms": [0, 1000], "requests": [{"id": "a", "scheduled_ms": 0}, {"id": "b", "scheduled_ms": 1}]}`
	events := `{"id": "a", "sent_ms": 0, "terminal_ms": 9e12, "token_ms": [240], "status": "success", "quality_pass": true}` + "\n" +
		`{"id": "b", "sent_ms": 1, "terminal_ms": 9000000000001, "token_ms": [241], "status": "success", "quality_pass": true}` + "\n"
	r, err := Trace("t.json", []byte(trace), "e.jsonl", []byte(events), Options{})
	if err != nil {
		t.Fatal(err)
	}
	wantFloat(t, "e2e mean", r.Percentiles[record.MetricE2E].Mean, 9e12)
	// The horizon runs to the last terminal, 9e12 + 1 ms: 2 successes per
	// 9e9 s.
	wantFloat(t, "successful_rps", r.SuccessfulRPS, 2/((9e12+1)/1000))
	if _, err := json.Marshal(r); err != nil {
		t.Fatalf("the report does not encode: %v", err)
	}
}

func TestReviewTrailingSeparatorIsLocated(t *testing.T) {
	// A comma after the trace's object, on line 3 column 2: the error must
	// point there, not at the start of the file.
	trace := "{\"window_ms\": [0, 1000],\n \"requests\": [{\"id\": \"a\", \"scheduled_ms\": 0}]}\n ,\n"
	event := `{"id": "a", "sent_ms": 0, "terminal_ms": 500, "token_ms": [240], "status": "success", "quality_pass": true}`
	_, err := Trace("t.json", []byte(trace), "e.jsonl", []byte(event+"\n"), Options{})
	ie := wantInputError(t, err, "t.json", "", "unexpected data after the JSON value")
	if ie.Line != 3 || ie.Column != 2 {
		t.Fatalf("error at line %d column %d, want line 3 column 2", ie.Line, ie.Column)
	}
}

func TestReviewFluidityOfMultiTokenEvents(t *testing.T) {
	// Runner records whose logprobs prove 3 tokens in the first event (at
	// 700 ms) and 1 in the second (at 900 ms); sent at 0, rule 300/80 ms.
	// The first token is due at 300 and comes 400 ms late: it crossed 300,
	// 380, 460, 540, 620 and 700, 1 + floor(400 / 80) = 6 misses. The
	// deadlines restart from 700: the event's other two tokens are due at
	// 780 and 860 and, having come at 700, meet them. The next is due at
	// 940 and 900 meets it. 6 missed of 6 + 3 = 9.
	s := &schedule.Schedule{Schema: schedule.Schema, Mode: "open", WindowMS: [2]float64{0, 1000}, ScheduleLagToleranceMS: 20,
		Entries: []schedule.Entry{{ID: "a", ScheduledMS: 0}}}
	four := 4
	r, err := Outcomes(s, []record.Outcome{{ID: "a", Attempt: 1, Status: record.StatusSuccess, SentMS: new(0.0), ContentMS: []float64{700, 900},
		EventTokens: []int{3, 1}, OutputTokens: &four, TerminalMS: 950}}, Options{Fluidity: &seedFluidity})
	if err != nil {
		t.Fatal(err)
	}
	if f := r.Fluidity; f.Deadlines != 9 || f.MissedDeadlines != 6 {
		t.Fatalf("fluidity %+v, want 6 missed of 9", f)
	}
	if m := r.Requests[0].FluidityMisses; m == nil || *m != 6 {
		t.Fatalf("request misses %v, want 6", m)
	}
	// One event proven to hold 10^12 tokens, at its 300 ms deadline: the
	// first meets it and the rest arrived ahead of theirs, so 10^12
	// deadlines, none missed. Scoring it must not take a step per token.
	got := tokenDeadlines(seedFluidity, 0, []float64{300}, func(int) int { return 1_000_000_000_000 })
	if got.deadlines != 1_000_000_000_000 || got.missed != 0 {
		t.Fatalf("%+v, want 10^12 deadlines, none missed", got)
	}
}

func TestReviewEveryOutcomeRecordObeysTheClockRules(t *testing.T) {
	// Request a is retried: its first attempt's send time judges the
	// generator's punctuality, so a first attempt sent at NaN would put NaN
	// in the report (its schedule lag, the lag population). Request b is
	// scheduled after the window [0, 1000): not offered, but its record is
	// still a record of the run and must obey the same rules.
	s := &schedule.Schedule{Schema: schedule.Schema, Mode: "open", WindowMS: [2]float64{0, 1000}, ScheduleLagToleranceMS: 20,
		Entries: []schedule.Entry{{ID: "a", ScheduledMS: 0}, {ID: "b", ScheduledMS: 2000}}}
	one := 1
	final := record.Outcome{ID: "a", Attempt: 2, Status: record.StatusSuccess, SentMS: new(300.0), ContentMS: []float64{400},
		OutputTokens: &one, TerminalMS: 500}
	b := record.Outcome{ID: "b", Attempt: 1, Status: record.StatusSuccess, ScheduledMS: 2000, SentMS: new(2000.0), ContentMS: []float64{2100},
		OutputTokens: &one, TerminalMS: 2200}

	first := record.Outcome{ID: "a", Attempt: 1, Status: record.StatusStreamError, SentMS: new(math.NaN()), TerminalMS: 10}
	_, err := Outcomes(s, []record.Outcome{first, final, b}, Options{})
	if ie := wantInputError(t, err, "", "sent_ms", "non-finite time NaN"); ie.ID != "a" {
		t.Fatalf("error names request %q, want a", ie.ID)
	}

	first.SentMS = new(0.0)
	badB := b
	badB.ContentMS = []float64{1900} // before its send at 2000
	_, err = Outcomes(s, []record.Outcome{first, final, badB}, Options{})
	if ie := wantInputError(t, err, "", "content_ms[0]", "before sent 2000"); ie.ID != "b" {
		t.Fatalf("error names request %q, want b", ie.ID)
	}

	// With both records sound the run scores: a is offered, b is not; a's
	// lag is its first attempt's, 0 − 0 = 0 ms.
	r, err := Outcomes(s, []record.Outcome{first, final, b}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if r.Offered != 1 || r.Qualified != 1 {
		t.Fatalf("offered %d qualified %d, want 1 and 1", r.Offered, r.Qualified)
	}
	wantFloat(t, "a lag", r.Requests[0].ScheduleLagMS, 0)
}

func TestReviewTPOTEqualToItsBoundPasses(t *testing.T) {
	// Sent at 0, four tokens at 100, 180.1, 260.2 and 340.3 ms: TPOT =
	// (340.3 − 100) / (4 − 1) = 240.3 / 3 = 80.1 ms, exactly the bound, so
	// the request qualifies (a bound is met when the value is at most it).
	// In floating point 240.3 / 3 is 80.10000000000001.
	r, err := scoreOne(t, `"slo": {"tpot_ms": 80.1}, `,
		`{"id": "a", "sent_ms": 0, "terminal_ms": 400, "token_ms": [100, 180.1, 260.2, 340.3], "status": "success", "quality_pass": true}`,
		Options{})
	if err != nil {
		t.Fatal(err)
	}
	if r.Qualified != 1 {
		t.Fatalf("TPOT %v ms against a bound of 80.1: reasons %v", *r.Requests[0].TPOTMS, r.Requests[0].Reasons)
	}
	// One microsecond more on the span, 240.301 / 3 = 80.100333 ms, fails.
	r, err = scoreOne(t, `"slo": {"tpot_ms": 80.1}, `,
		`{"id": "a", "sent_ms": 0, "terminal_ms": 400, "token_ms": [100, 180.1, 260.2, 340.301], "status": "success", "quality_pass": true}`,
		Options{})
	if err != nil {
		t.Fatal(err)
	}
	if r.Qualified != 0 || r.ReasonCounts[report.ReasonTPOT] != 1 {
		t.Fatalf("TPOT %v ms passed a bound of 80.1", *r.Requests[0].TPOTMS)
	}
}

func TestReviewITLAndChunkGapPopulations(t *testing.T) {
	// The token ITL sample is kept apart from the chunk gaps only once a
	// success is not proven token level; this pins both cases.
	// Window [0, 1000), sent on schedule, ordered a, b, c:
	//   a: events at 100, 110, 130, one token each, n = 3: gaps 10, 20 (token level)
	//   b: events at 200, 240 holding 2 and 1 tokens, n = 3: gap 40 (not token level)
	//   c: events at 300, 305, 335, 395, one token each, n = 4: gaps 5, 30, 60 (token level)
	s := &schedule.Schedule{Schema: schedule.Schema, Mode: "open", WindowMS: [2]float64{0, 1000}, ScheduleLagToleranceMS: 20,
		Entries: []schedule.Entry{{ID: "a", ScheduledMS: 0}, {ID: "b", ScheduledMS: 100}, {ID: "c", ScheduledMS: 200}}}
	a := record.Outcome{ID: "a", Attempt: 1, Status: record.StatusSuccess, SentMS: new(0.0), ContentMS: []float64{100, 110, 130},
		EventTokens: []int{1, 1, 1}, OutputTokens: new(3), TerminalMS: 140}
	b := record.Outcome{ID: "b", Attempt: 1, Status: record.StatusSuccess, SentMS: new(100.0), ContentMS: []float64{200, 240},
		EventTokens: []int{2, 1}, OutputTokens: new(3), TerminalMS: 250}
	c := record.Outcome{ID: "c", Attempt: 1, Status: record.StatusSuccess, SentMS: new(200.0), ContentMS: []float64{300, 305, 335, 395},
		EventTokens: []int{1, 1, 1, 1}, OutputTokens: new(4), TerminalMS: 400}
	r, err := Outcomes(s, []record.Outcome{a, b, c}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	// Chunk gaps pool all six: sorted [5, 10, 20, 30, 40, 60], mean
	// 165 / 6 = 27.5, nearest-rank p50 = rank ceil(3) = 3rd = 20, max 60.
	chunk := r.Percentiles[record.MetricChunkGap]
	if chunk.N != 6 || *chunk.P50 != 20 || *chunk.Max != 60 {
		t.Fatalf("chunk gaps %+v", chunk)
	}
	wantFloat(t, "chunk mean", chunk.Mean, 27.5)
	// Token ITL pools a's and c's five: sorted [5, 10, 20, 30, 60], mean
	// 125 / 5 = 25, p50 = rank ceil(2.5) = 3rd = 20, p90 = rank ceil(4.5)
	// = 5th = 60.
	itl := r.Percentiles[record.MetricITL]
	if itl.N != 5 || *itl.P50 != 20 || *itl.P90 != 60 || !strings.Contains(itl.Population, "5 gaps from 2 requests") {
		t.Fatalf("itl %+v", itl)
	}
	wantFloat(t, "itl mean", itl.Mean, 25)
	if v, n, _, err := r.Percentile(record.MetricITL, 20); err != nil || n != 5 || v != 5 {
		t.Fatalf("itl p20 = %v (n %d, %v), want rank ceil(1) = 5", v, n, err)
	}

	// Without b every gap is token level and both populations are the same
	// five gaps, each described as its own population.
	s.Entries = []schedule.Entry{{ID: "a", ScheduledMS: 0}, {ID: "c", ScheduledMS: 200}}
	r, err = Outcomes(s, []record.Outcome{a, c}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	chunk, itl = r.Percentiles[record.MetricChunkGap], r.Percentiles[record.MetricITL]
	if chunk.N != 5 || itl.N != 5 || *itl.P50 != 20 || *itl.Max != 60 || *chunk.P90 != 60 {
		t.Fatalf("chunk %+v, itl %+v", chunk, itl)
	}
	if !strings.Contains(itl.Population, "proven to hold one token") || !strings.Contains(chunk.Population, "gaps between content events") {
		t.Fatalf("populations %q and %q", itl.Population, chunk.Population)
	}
}

func TestReviewReasonListsAreTheirOwn(t *testing.T) {
	// Three failed requests: a and b time out (status), c succeeds 400 ms
	// after its send against a 300 ms TTFT bound and fails quality
	// (quality, ttft). Writing into or appending to one request's list
	// must leave the others as they were.
	trace := `{"window_ms": [0, 1000], "slo": {"ttft_ms": 300}, "requests": [{"id": "a", "scheduled_ms": 0}, {"id": "b", "scheduled_ms": 1}, {"id": "c", "scheduled_ms": 2}]}`
	events := `{"id": "a", "sent_ms": 0, "terminal_ms": 900, "token_ms": [], "status": "timeout", "quality_pass": null}
{"id": "b", "sent_ms": 1, "terminal_ms": 901, "token_ms": [], "status": "timeout", "quality_pass": null}
{"id": "c", "sent_ms": 2, "terminal_ms": 500, "token_ms": [402], "status": "success", "quality_pass": false}
`
	r, err := Trace("t.json", []byte(trace), "e.jsonl", []byte(events), Options{})
	if err != nil {
		t.Fatal(err)
	}
	a, b, c := r.Requests[0].Reasons, r.Requests[1].Reasons, r.Requests[2].Reasons
	if len(a) != 1 || a[0] != report.ReasonStatus || len(b) != 1 || b[0] != report.ReasonStatus ||
		len(c) != 2 || c[0] != report.ReasonQuality || c[1] != report.ReasonTTFT {
		t.Fatalf("reasons %v %v %v", a, b, c)
	}
	a[0] = "changed"
	_ = append(a, "appended")
	_ = append(b, "appended")
	if b[0] != report.ReasonStatus || c[0] != report.ReasonQuality || c[1] != report.ReasonTTFT {
		t.Fatalf("one request's reasons changed another's: %v %v", b, c)
	}
}
