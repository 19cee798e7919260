package score

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/servebench/report"
	"github.com/servebench/servebench/servebench/stats"
)

// A small valid input to break one rule at a time.
const (
	tinyTrace = `{"window_ms": [0, 1000], "slo": {"ttft_ms": 300},
 "requests": [{"id": "a", "scheduled_ms": 0}, {"id": "b", "scheduled_ms": 500}]}`
	tinyA = `{"id": "a", "sent_ms": 1, "terminal_ms": 300, "token_ms": [100, 200], "status": "success", "quality_pass": true}`
	tinyB = `{"id": "b", "sent_ms": 502, "terminal_ms": 900, "token_ms": [600, 700, 800], "status": "success", "quality_pass": null}`
)

func scoreTiny(trace string, lines ...string) (*report.Report, error) {
	return Trace("t.json", []byte(trace), "e.jsonl", []byte(strings.Join(lines, "\n")+"\n"), Options{})
}

func TestTinyInputScores(t *testing.T) {
	r, err := scoreTiny(tinyTrace, tinyA, tinyB)
	if err != nil {
		t.Fatal(err)
	}
	if r.Offered != 2 || r.Qualified != 2 || r.Quality.Unscored != 1 || r.AttainmentKind != "performance+partial-quality" {
		t.Fatalf("offered %d qualified %d quality %+v kind %q", r.Offered, r.Qualified, r.Quality, r.AttainmentKind)
	}
	if r.Requests[1].Quality != "unscored" {
		t.Fatalf("null quality_pass is %q", r.Requests[1].Quality)
	}
}

func TestEventsRejectionRules(t *testing.T) {
	replace := func(line, old, new string) string {
		if !strings.Contains(line, old) {
			panic("fixture does not contain " + old)
		}
		return strings.Replace(line, old, new, 1)
	}
	cases := []struct {
		name       string
		lines      []string
		line       int
		field, msg string
	}{
		{"unknown field", []string{tinyA, replace(tinyB, `"status"`, `"extra": 1, "status"`)}, 2, "extra", "unknown field"},
		{"missing field", []string{replace(tinyA, `, "quality_pass": true`, ``), tinyB}, 1, "quality_pass", "missing required field"},
		{"duplicate key", []string{replace(tinyA, `"sent_ms": 1,`, `"sent_ms": 1, "sent_ms": 2,`), tinyB}, 1, "sent_ms", "duplicate key"},
		{"NaN", []string{replace(tinyA, `"sent_ms": 1`, `"sent_ms": NaN`), tinyB}, 1, "sent_ms", "non-finite number NaN"},
		{"Infinity", []string{tinyA, replace(tinyB, `"terminal_ms": 900`, `"terminal_ms": Infinity`)}, 2, "terminal_ms", "non-finite number Infinity"},
		{"overflow", []string{replace(tinyA, `[100, 200]`, `[100, 1e999]`), tinyB}, 1, "token_ms[1]", "non-finite number 1e999"},
		{"negative send", []string{replace(tinyA, `"sent_ms": 1`, `"sent_ms": -1`), tinyB}, 1, "sent_ms", "negative time -1"},
		{"negative terminal", []string{replace(tinyA, `"terminal_ms": 300`, `"terminal_ms": -3`), tinyB}, 1, "terminal_ms", "negative time -3"},
		{"terminal before send", []string{replace(tinyA, `"sent_ms": 1,`, `"sent_ms": 350,`), tinyB}, 1, "terminal_ms", "terminal 300 before sent 350"},
		{"token before send", []string{replace(tinyA, `"sent_ms": 1,`, `"sent_ms": 150,`), tinyB}, 1, "token_ms[0]", "token at 100 before sent 150"},
		{"token after terminal", []string{tinyA, replace(tinyB, `800]`, `950]`)}, 2, "token_ms[2]", "token at 950 after terminal 900"},
		{"tokens out of order", []string{tinyA, replace(tinyB, `[600, 700, 800]`, `[600, 800, 700]`)}, 2, "token_ms[2]", "tokens out of order"},
		{"unknown ID", []string{tinyA, tinyB, replace(tinyA, `"id": "a"`, `"id": "zz"`)}, 3, "id", "unknown request ID"},
		{"duplicate ID", []string{tinyA, tinyB, tinyA}, 3, "id", "duplicate request ID: line 1 already holds its outcome"},
		{"success without tokens", []string{replace(tinyA, `[100, 200]`, `[]`), tinyB}, 1, "token_ms", "status success with no tokens"},
		{"empty_output with tokens", []string{replace(tinyA, `"success"`, `"empty_output"`), tinyB}, 1, "token_ms", "status empty_output with 2 tokens"},
		{"unknown status", []string{replace(tinyA, `"success"`, `"ok"`), tinyB}, 1, "status", `unknown status "ok"`},
		{"null send for a sent status", []string{replace(tinyA, `"sent_ms": 1`, `"sent_ms": null`), tinyB}, 1, "sent_ms", "null send time for status success"},
		{"not_sent with a send time", []string{replace(tinyA, `"status": "success", "quality_pass": true`, `"status": "not_sent", "quality_pass": false`), tinyB}, 1, "sent_ms", "a not_sent request has a send time"},
		{"null token list", []string{replace(tinyA, `[100, 200]`, `null`), tinyB}, 1, "token_ms", "must not be null"},
		{"string time", []string{replace(tinyA, `"sent_ms": 1`, `"sent_ms": "1"`), tinyB}, 1, "sent_ms", `want a number, got string "1"`},
		{"malformed JSON", []string{tinyA, `{"id": "b", "sent_ms": 502,`}, 2, "", "unexpected end of input"},
		{"not an object", []string{tinyA, `["b"]`}, 2, "", "want a JSON object"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := scoreTiny(tinyTrace, c.lines...)
			var ie *record.InputError
			if !errors.As(err, &ie) {
				t.Fatalf("want a ScoreInputError, got %v", err)
			}
			if ie.File != "e.jsonl" || ie.Line != c.line || ie.Field != c.field || !strings.Contains(ie.Msg, c.msg) {
				t.Fatalf("got %s (file %q line %d field %q), want e.jsonl line %d field %q containing %q",
					ie.Error(), ie.File, ie.Line, ie.Field, c.line, c.field, c.msg)
			}
			if c.field != "" && ie.Column == 0 {
				t.Fatalf("%s: no column", ie.Error())
			}
		})
	}
}

func TestEventsErrorNamesFileLineAndField(t *testing.T) {
	_, err := scoreTiny(tinyTrace, tinyA, strings.Replace(tinyB, `"sent_ms": 502`, `"sent_ms": -2`, 1))
	if got, want := err.Error(), `e.jsonl:2:24: request "b": field "sent_ms": negative time -2`; got != want {
		t.Fatalf("error %q, want %q", got, want)
	}
}

func TestEventsAcceptEqualTimestampsAndBlankLines(t *testing.T) {
	b := strings.Replace(tinyB, `[600, 700, 800]`, `[600, 600, 900]`, 1)
	r, err := scoreTiny(tinyTrace, tinyA, "", "  ", b)
	if err != nil {
		t.Fatal(err)
	}
	// Equal times: a gap of 0, and the TPOT (900 − 600)/2 = 150.
	wantFloat(t, "b tpot", r.Requests[1].TPOTMS, 150)
	if d := r.Percentiles[record.MetricITL]; d.N != 3 || *d.P50 != 100 {
		t.Fatalf("itl %+v: want gaps [0, 100, 300]", d)
	}
}

func TestTraceRejectionRules(t *testing.T) {
	cases := []struct {
		name, trace string
		line        int
		field, msg  string
	}{
		{"unknown field", strings.Replace(tinyTrace, `"slo"`, `"sla": 1, "slo"`, 1), 1, "sla", "unknown field"},
		{"missing requests", `{"window_ms": [0, 1000]}`, 1, "requests", "missing required field"},
		{"missing window", `{"requests": []}`, 1, "window_ms", "missing required field"},
		{"window of three", strings.Replace(tinyTrace, `[0, 1000]`, `[0, 1000, 2000]`, 1), 1, "window_ms[2]", "too many elements"},
		{"empty window", strings.Replace(tinyTrace, `[0, 1000]`, `[1000, 1000]`, 1), 1, "window_ms", "0 <= start < end"},
		{"duplicate request ID", strings.Replace(tinyTrace, `"id": "b"`, `"id": "a"`, 1), 2, "requests[1].id", `duplicate request ID "a" (also requests[0])`},
		{"negative scheduled", strings.Replace(tinyTrace, `"scheduled_ms": 500`, `"scheduled_ms": -5`, 1), 2, "requests[1].scheduled_ms", "negative time -5"},
		{"zero SLO bound", strings.Replace(tinyTrace, `"ttft_ms": 300`, `"ttft_ms": 0`, 1), 1, "slo.ttft_ms", "want a bound > 0 ms"},
		{"unknown SLO field", strings.Replace(tinyTrace, `"ttft_ms": 300`, `"ttft": 300`, 1), 1, "slo.ttft", "unknown field"},
		{"negative tolerance", strings.Replace(tinyTrace, `"slo"`, `"schedule_lag_tolerance_ms": -1, "slo"`, 1), 1, "schedule_lag_tolerance_ms", "want a tolerance >= 0"},
		{"duplicate key", strings.Replace(tinyTrace, `"slo"`, `"window_ms": [0, 5], "slo"`, 1), 1, "window_ms", "duplicate key"},
		{"trailing data", tinyTrace + "\n{}", 3, "", "unexpected data after the JSON value"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := scoreTiny(c.trace, tinyA, tinyB)
			var ie *record.InputError
			if !errors.As(err, &ie) {
				t.Fatalf("want a ScoreInputError, got %v", err)
			}
			if ie.File != "t.json" || ie.Line != c.line || ie.Field != c.field || !strings.Contains(ie.Msg, c.msg) {
				t.Fatalf("got %s (line %d field %q), want t.json line %d field %q containing %q",
					ie.Error(), ie.Line, ie.Field, c.line, c.field, c.msg)
			}
		})
	}
}

func TestTraceEmptyCohortIsRejected(t *testing.T) {
	trace := strings.Replace(tinyTrace, `[0, 1000]`, `[2000, 3000]`, 1)
	_, err := scoreTiny(trace, tinyA, tinyB)
	var ie *record.InputError
	if !errors.As(err, &ie) || ie.Field != "requests" || !strings.Contains(ie.Msg, "no request is scheduled in the window [2000, 3000) ms") {
		t.Fatalf("got %v", err)
	}
}

func TestTraceRequestsOutsideTheWindowAreNotOffered(t *testing.T) {
	// b at 500 falls outside [0, 500): it must still have its outcome but
	// is not part of the cohort.
	trace := strings.Replace(tinyTrace, `[0, 1000]`, `[0, 500]`, 1)
	r, err := scoreTiny(trace, tinyA, tinyB)
	if err != nil {
		t.Fatal(err)
	}
	if r.Offered != 1 || r.Requests[0].ID != "a" {
		t.Fatalf("offered %d", r.Offered)
	}
	// The horizon runs to the cohort's last terminal (a at 300 < window end 500).
	if r.HorizonMS != 500 {
		t.Fatalf("horizon %v", r.HorizonMS)
	}
	if _, err := scoreTiny(trace, tinyA); err == nil {
		t.Fatal("a missing outcome outside the window was accepted")
	}
}

func TestUnsentRequestMakesTheRunInvalid(t *testing.T) {
	unsent := `{"id": "b", "sent_ms": null, "terminal_ms": 1000, "token_ms": [], "status": "not_sent", "quality_pass": false}`
	r, err := scoreTiny(tinyTrace, tinyA, unsent)
	if err != nil {
		t.Fatal(err)
	}
	if r.Valid || r.StatusCounts[record.StatusNotSent] != 1 || r.Qualified != 1 {
		t.Fatalf("valid %v counts %v", r.Valid, r.StatusCounts)
	}
	wantFloat(t, "attainment", r.Attainment, 0.5)
	if r.Requests[1].SentMS != nil || r.Requests[1].ScheduleLagMS != nil || r.Requests[1].E2EMS != nil {
		t.Fatalf("an unsent request has times: %+v", r.Requests[1])
	}
	if len(r.InvalidReasons) != 1 || r.InvalidReasons[0] != "1 of 2 offered requests were not sent" {
		t.Fatalf("reasons %q", r.InvalidReasons)
	}
	if d := r.Percentiles[record.MetricScheduleLag]; d.N != 1 {
		t.Fatalf("lag population %d, want the one sent request", d.N)
	}
}

func TestOptionsOverrideTheTrace(t *testing.T) {
	tol := 0.5
	r, err := Trace("t.json", []byte(tinyTrace), "e.jsonl", []byte(tinyA+"\n"+tinyB),
		Options{SLO: report.SLO{E2E: 350e6}, LagToleranceMS: &tol, PercentileMethod: stats.Linear, Confidence: 0.9})
	if err != nil {
		t.Fatal(err)
	}
	// The E2E bound of 350 ms replaces the trace's TTFT bound: a (299 ms)
	// passes, b (398 ms) fails; both lags (1 and 2 ms) exceed 0.5 ms.
	if r.Qualified != 1 || r.Requests[1].Reasons[0] != report.ReasonE2E || r.LateCount != 2 || r.Valid {
		t.Fatalf("qualified %d reasons %v late %d", r.Qualified, r.Requests[1].Reasons, r.LateCount)
	}
	if r.PercentileMethod != stats.Linear || r.WilsonConfidence != 0.9 {
		t.Fatalf("method %q confidence %v", r.PercentileMethod, r.WilsonConfidence)
	}
	// Linear p50 of TTFT [99, 98] = 98.5.
	wantFloat(t, "ttft p50", r.Percentiles[record.MetricTTFT].P50, 98.5)
	for _, bad := range []Options{{Confidence: 1.5}, {PercentileMethod: "median"}, {WindowMS: &[2]float64{5, 5}}, {SLO: report.SLO{TPOT: -1}}} {
		if _, err := Trace("t.json", []byte(tinyTrace), "e.jsonl", []byte(tinyA+"\n"+tinyB), bad); err == nil {
			t.Fatalf("options %+v accepted", bad)
		}
	}
}

// bigInput builds a trace and events of n requests, with edit applied to
// the events line of each index.
func bigInput(n int, edit func(i int, line string) string) (trace, events []byte) {
	var tb, eb strings.Builder
	tb.WriteString(`{"window_ms": [0, 100000], "requests": [`)
	for i := range n {
		if i > 0 {
			tb.WriteString(",")
		}
		fmt.Fprintf(&tb, `{"id": "r%d", "scheduled_ms": %d}`, i, i)
		line := fmt.Sprintf(`{"id": "r%d", "sent_ms": %d, "terminal_ms": %d, "token_ms": [%d, %d], "status": "success", "quality_pass": true}`, i, i, i+50, i+10, i+20)
		eb.WriteString(edit(i, line) + "\n")
	}
	tb.WriteString("]}")
	return []byte(tb.String()), []byte(eb.String())
}

func TestEventsManyLinesReportTheEarliestError(t *testing.T) {
	keep := func(_ int, line string) string { return line }
	trace, events := bigInput(3000, keep)
	r, err := Trace("t.json", trace, "e.jsonl", events, Options{})
	if err != nil || r.Offered != 3000 || r.Qualified != 3000 {
		t.Fatalf("valid input: %v", err)
	}
	cases := []struct {
		name string
		edit func(i int, line string) string
		want string
	}{
		{"two bad lines in different chunks", func(i int, line string) string {
			if i == 2899 || i == 2499 {
				return strings.Replace(line, `"sent_ms"`, `"sent"`, 1)
			}
			return line
		}, `e.jsonl:2500:`},
		{"an unknown ID before a malformed line", func(i int, line string) string {
			switch i {
			case 99:
				return strings.Replace(line, `"id": "r99"`, `"id": "x"`, 1)
			case 1999:
				return line[:20]
			}
			return line
		}, `e.jsonl:100:`},
		{"a malformed line before a duplicate ID", func(i int, line string) string {
			switch i {
			case 99:
				return line[:20]
			case 1999:
				return strings.Replace(line, `"id": "r1999"`, `"id": "r5"`, 1)
			}
			return line
		}, `e.jsonl:100:`},
	}
	for _, c := range cases {
		trace, events := bigInput(3000, c.edit)
		_, err := Trace("t.json", trace, "e.jsonl", events, Options{})
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Fatalf("%s: got %v, want an error at %s", c.name, err, c.want)
		}
	}
}
