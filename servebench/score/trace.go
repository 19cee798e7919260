package score

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"

	"github.com/servebench/servebench/internal/numfmt"
	"github.com/servebench/servebench/internal/strictjson"
	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/servebench/report"
	"github.com/servebench/servebench/servebench/schedule"
)

// traceFile is the TRACE input of the normalized format: the arrival window,
// the lag tolerance, the latency objective and the scheduled requests.
//
//	{"window_ms": [0, 2000], "schedule_lag_tolerance_ms": 20,
//	 "slo": {"ttft_ms": 300, "tpot_ms": 80, "e2e_ms": 3000},
//	 "requests": [{"id": "r01", "scheduled_ms": 0}, ...]}
type traceFile struct {
	WindowMS               [2]float64     `json:"window_ms"`
	ScheduleLagToleranceMS *float64       `json:"schedule_lag_tolerance_ms" strict:"optional"`
	SLO                    *traceSLO      `json:"slo" strict:"optional"`
	Fluidity               *traceFluidity `json:"fluidity" strict:"optional"`
	Requests               []traceRequest `json:"requests" strict:"nonnull"`
}

// traceSLO declares latency bounds in milliseconds; each is optional.
type traceSLO struct {
	TTFTMS            *float64 `json:"ttft_ms" strict:"optional"`
	TPOTMS            *float64 `json:"tpot_ms" strict:"optional"`
	E2EMS             *float64 `json:"e2e_ms" strict:"optional"`
	TTFTFromScheduled *bool    `json:"ttft_from_scheduled" strict:"optional"`
}

// traceFluidity declares a fluidity rule in milliseconds.
type traceFluidity struct {
	FirstTokenDeadlineMS float64 `json:"first_token_deadline_ms"`
	CadenceMS            float64 `json:"cadence_ms"`
}

// traceRequest is one scheduled request.
type traceRequest struct {
	ID          string  `json:"id"`
	ScheduledMS float64 `json:"scheduled_ms"`
	Class       string  `json:"class" strict:"optional"`
}

// eventLine is one line of the EVENTS input: one request's outcome, every
// token event holding one token. quality_pass is the supplied task
// judgment; null leaves the request unscored.
//
//	{"id": "r01", "sent_ms": 0, "terminal_ms": 500,
//	 "token_ms": [240, 280, 320, 440, 480], "status": "success", "quality_pass": true}
type eventLine struct {
	ID          string        `json:"id"`
	SentMS      *float64      `json:"sent_ms"`
	TerminalMS  float64       `json:"terminal_ms"`
	TokenMS     []float64     `json:"token_ms" strict:"nonnull"`
	Status      record.Status `json:"status"`
	QualityPass *bool         `json:"quality_pass"`
}

// TraceFiles scores the normalized format: a TRACE JSON file and an EVENTS
// JSONL file with exactly one line per scheduled request, under the trace's
// own window, tolerance and SLO. Malformed or incomplete input is a
// *record.InputError naming the file, line and field; a report whose load was
// not delivered is returned without error (see Report.LoadDelivered).
func TraceFiles(trace, events string) (*report.Report, error) {
	tb, err := os.ReadFile(trace)
	if err != nil {
		return nil, &record.InputError{File: trace, Msg: err.Error()}
	}
	eb, err := os.ReadFile(events)
	if err != nil {
		return nil, &record.InputError{File: events, Msg: err.Error()}
	}
	return Trace(trace, tb, events, eb, Options{})
}

// Trace scores the normalized format from bytes; the names are used in
// errors. Options override the trace: a non-nil WindowMS or LagToleranceMS,
// a declared SLO, or a Fluidity rule replace the trace's own.
//
// It rejects unknown or missing fields, duplicate keys, non-finite or
// negative times, a token before its send or after its terminal, tokens out
// of order (equal times are allowed), unknown or duplicate IDs, a scheduled
// request with no outcome, a success with no tokens, an empty_output with
// tokens, a not_sent record with a send time or tokens, and malformed JSON.
// Blank lines in EVENTS are skipped. Requests scheduled outside the window
// must still have their outcome but are not part of the cohort.
func Trace(traceName string, trace []byte, eventsName string, events []byte, opts Options) (*report.Report, error) {
	tf, err := parseTraceFile(traceName, trace)
	if err != nil {
		return nil, err
	}
	opts, tol := tf.options(opts)
	set, err := resolveScoreSetup(opts, tf.WindowMS, tol)
	if err != nil {
		return nil, err
	}
	got, err := tf.matchEvents(traceName, eventsName, events)
	if err != nil {
		return nil, err
	}
	if err := tf.checkEveryOutcome(got, traceName, trace, eventsName); err != nil {
		return nil, err
	}
	recs := make([]scoreRecord, 0, len(tf.Requests))
	for i, q := range tf.Requests {
		if !set.inWindow(q.ScheduledMS) {
			continue
		}
		recs = append(recs, recordFromEvent(q, got[i]))
	}
	if len(recs) == 0 {
		return nil, &record.InputError{File: traceName, Field: "requests",
			Msg: fmt.Sprintf("no request is scheduled in the window [%s, %s) ms: nothing to score", numfmt.Compact(set.window[0]), numfmt.Compact(set.window[1]))}
	}
	rep := scoreRecords(set, recs, runShape{})
	rep.Inputs.TraceSHA256 = scoreSHA256Hex(trace)
	rep.Inputs.EventsSHA256 = scoreSHA256Hex(events)
	return rep, nil
}

// options fills what opts leaves unset from the trace's declarations: the
// lag tolerance, the SLO (keeping opts' TTFT-from-scheduled choice) and
// the fluidity rule. It also returns the trace's tolerance, or the default
// when the trace declares none.
func (tf *traceFile) options(opts Options) (Options, float64) {
	tol := record.Millis(schedule.DefaultLagTolerance)
	if tf.ScheduleLagToleranceMS != nil {
		tol = *tf.ScheduleLagToleranceMS
	}
	if opts.LagToleranceMS == nil {
		opts.LagToleranceMS = &tol
	}
	if sloUnset(opts.SLO) && tf.SLO != nil {
		fromScheduled := opts.SLO.TTFTFromScheduled
		opts.SLO = tf.SLO.slo()
		opts.SLO.TTFTFromScheduled = opts.SLO.TTFTFromScheduled || fromScheduled
	}
	if opts.Fluidity == nil && tf.Fluidity != nil {
		opts.Fluidity = &FluidityRule{
			FirstTokenDeadline: record.FromMillis(tf.Fluidity.FirstTokenDeadlineMS),
			Cadence:            record.FromMillis(tf.Fluidity.CadenceMS),
		}
	}
	return opts, tol
}

// matchEvents decodes and checks the EVENTS lines and returns each trace
// request's event line (nil when it has none). Every line before the first
// bad one is checked against the trace, so the error reported is always
// the earliest line's: an unknown ID, a repeated one, or the bad line's.
func (tf *traceFile) matchEvents(traceName, eventsName string, events []byte) ([]*eventLine, error) {
	byID := make(map[string]int, len(tf.Requests))
	for i, q := range tf.Requests {
		byID[q.ID] = i
	}
	lines := splitJSONL(events)
	decoded, bad, decodeErr := decodeJSONL(lines, func(l jsonlLine) (eventLine, error) {
		var ev eventLine
		if err := strictjson.Decode(l.raw, &ev); err != nil {
			return ev, record.InputErrorFromJSON(eventsName, l.number, err)
		}
		if err := checkEventLine(&ev, func(field, format string, args ...any) error {
			return record.InputErrorAt(eventsName, l.number, l.raw, ev.ID, field, format, args...)
		}); err != nil {
			return ev, err
		}
		return ev, nil
	})
	got := make([]*eventLine, len(tf.Requests))
	lineOf := make([]int, len(tf.Requests))
	for k := range decoded[:bad] {
		ev, l := &decoded[k], lines[k]
		i, ok := byID[ev.ID]
		if !ok {
			return nil, record.InputErrorAt(eventsName, l.number, l.raw, ev.ID, "id", "unknown request ID: %s schedules no such request", traceName)
		}
		if got[i] != nil {
			return nil, record.InputErrorAt(eventsName, l.number, l.raw, ev.ID, "id", "duplicate request ID: line %d already holds its outcome", lineOf[i])
		}
		got[i], lineOf[i] = ev, l.number
	}
	if decodeErr != nil {
		return nil, decodeErr
	}
	return got, nil
}

// checkEveryOutcome refuses a trace request without an event line, naming
// the first such request with its line in the trace and counting the
// others.
func (tf *traceFile) checkEveryOutcome(got []*eventLine, traceName string, trace []byte, eventsName string) error {
	missing := 0
	firstMissing := -1
	for i := range got {
		if got[i] == nil {
			missing++
			if firstMissing < 0 {
				firstMissing = i
			}
		}
	}
	if missing == 0 {
		return nil
	}
	q := tf.Requests[firstMissing]
	msg := fmt.Sprintf("no outcome for scheduled request %q (%s line %d)", q.ID, traceName, traceLine(trace, firstMissing))
	if missing > 1 {
		msg += fmt.Sprintf(" and %d more", missing-1)
	}
	return &record.InputError{File: eventsName, Msg: msg + ": every scheduled request needs a terminal outcome"}
}

// parseTraceFile decodes and checks the TRACE input.
func parseTraceFile(name string, data []byte) (*traceFile, error) {
	var tf traceFile
	if err := strictjson.Decode(data, &tf); err != nil {
		return nil, record.InputErrorFromJSON(name, 0, err)
	}
	bad := func(field, format string, args ...any) error {
		return record.InputErrorAt(name, 0, data, "", field, format, args...)
	}
	if w := tf.WindowMS; w[0] < 0 || w[1] <= w[0] {
		return nil, bad("window_ms", "want [start, end) with 0 <= start < end, got [%v, %v]", w[0], w[1])
	}
	if w := tf.WindowMS; msBetween(w[0], w[1]) < 0.001 || w[1] > record.MaxTimeMS {
		return nil, bad("window_ms", "want a window at least 0.001 ms long (the records' 1 µs resolution) that ends by %s, got [%v, %v]", record.MaxTimeText, w[0], w[1])
	}
	if t := tf.ScheduleLagToleranceMS; t != nil && *t < 0 {
		return nil, bad("schedule_lag_tolerance_ms", "want a tolerance >= 0, got %v", *t)
	}
	if s := tf.SLO; s != nil {
		for _, b := range []struct {
			field string
			v     *float64
		}{{"slo.ttft_ms", s.TTFTMS}, {"slo.tpot_ms", s.TPOTMS}, {"slo.e2e_ms", s.E2EMS}} {
			if b.v != nil && *b.v <= 0 {
				return nil, bad(b.field, "want a bound > 0 ms, got %v (leave the field out to declare no bound)", *b.v)
			}
			if b.v != nil && *b.v < 0.001 {
				return nil, bad(b.field, "want a bound of at least 0.001 ms (the records' 1 µs resolution), got %v", *b.v)
			}
		}
	}
	if f := tf.Fluidity; f != nil {
		if f.FirstTokenDeadlineMS <= 0 {
			return nil, bad("fluidity.first_token_deadline_ms", "want a deadline > 0 ms, got %v", f.FirstTokenDeadlineMS)
		}
		if f.CadenceMS <= 0 {
			return nil, bad("fluidity.cadence_ms", "want a cadence > 0 ms, got %v", f.CadenceMS)
		}
	}
	seen := make(map[string]int, len(tf.Requests))
	for i, q := range tf.Requests {
		if q.ID == "" {
			return nil, bad(fmt.Sprintf("requests[%d].id", i), "empty request ID")
		}
		if j, dup := seen[q.ID]; dup {
			return nil, bad(fmt.Sprintf("requests[%d].id", i), "duplicate request ID %q (also requests[%d])", q.ID, j)
		}
		seen[q.ID] = i
		if msg := record.CheckTime(q.ScheduledMS); msg != "" {
			return nil, bad(fmt.Sprintf("requests[%d].scheduled_ms", i), "%s", msg)
		}
	}
	return &tf, nil
}

// slo converts the trace's bounds.
func (s *traceSLO) slo() report.SLO {
	var out report.SLO
	if s.TTFTMS != nil {
		out.TTFT = record.FromMillis(*s.TTFTMS)
	}
	if s.TPOTMS != nil {
		out.TPOT = record.FromMillis(*s.TPOTMS)
	}
	if s.E2EMS != nil {
		out.E2E = record.FromMillis(*s.E2EMS)
	}
	out.TTFTFromScheduled = s.TTFTFromScheduled != nil && *s.TTFTFromScheduled
	return out
}

// checkEventLine applies the clock rules to one EVENTS line.
func checkEventLine(ev *eventLine, fail func(field, format string, args ...any) error) error {
	if !ev.Status.Valid() {
		return fail("status", "unknown status %q", ev.Status)
	}
	// The other times lie between 0 and the terminal, so this bounds them.
	if msg := record.CheckTime(ev.TerminalMS); msg != "" {
		return fail("terminal_ms", "%s", msg)
	}
	if ev.Status == record.StatusNotSent {
		if ev.SentMS != nil {
			return fail("sent_ms", "a not_sent request has a send time %v (want null)", *ev.SentMS)
		}
		if len(ev.TokenMS) > 0 {
			return fail("token_ms", "a not_sent request has %d tokens (want [])", len(ev.TokenMS))
		}
		if ev.QualityPass != nil && *ev.QualityPass {
			return fail("quality_pass", "a not_sent request cannot pass quality")
		}
		return nil
	}
	if ev.SentMS == nil {
		return fail("sent_ms", "null send time for status %s (a request never sent is not_sent)", ev.Status)
	}
	d := *ev.SentMS
	if d < 0 {
		return fail("sent_ms", "negative time %v", d)
	}
	if ev.TerminalMS < d {
		return fail("terminal_ms", "terminal %v before sent %v", ev.TerminalMS, d)
	}
	for j, t := range ev.TokenMS {
		if t >= d && t <= ev.TerminalMS && (j == 0 || t >= ev.TokenMS[j-1]) {
			continue
		}
		f := fmt.Sprintf("token_ms[%d]", j)
		switch {
		case t < d:
			return fail(f, "token at %v before sent %v", t, d)
		case t > ev.TerminalMS:
			return fail(f, "token at %v after terminal %v", t, ev.TerminalMS)
		default:
			return fail(f, "token at %v before the previous token at %v: tokens out of order", t, ev.TokenMS[j-1])
		}
	}
	if ev.Status == record.StatusSuccess && len(ev.TokenMS) == 0 {
		return fail("token_ms", "status success with no tokens (an empty successful output is empty_output)")
	}
	if ev.Status == record.StatusEmptyOutput && len(ev.TokenMS) > 0 {
		return fail("token_ms", "status empty_output with %d tokens", len(ev.TokenMS))
	}
	return nil
}

// recordFromEvent converts a checked EVENTS line: each token event is one
// token, so n is the number of events and token-level gaps are proven.
func recordFromEvent(q traceRequest, ev *eventLine) scoreRecord {
	n := len(ev.TokenMS)
	rec := scoreRecord{id: q.ID, class: q.Class, status: ev.Status, scheduled: q.ScheduledMS,
		sent: ev.SentMS, terminal: ev.TerminalMS, hasTerminal: true, content: ev.TokenMS,
		tokenLevel: true, outputTokens: &n}
	if ev.QualityPass != nil {
		if *ev.QualityPass {
			rec.quality = qualityPass
		} else {
			rec.quality = qualityFail
			rec.qualityEvidence = "quality_pass: false"
		}
	}
	return rec
}

// traceLine is the line of the TRACE file where requests[i] starts.
func traceLine(trace []byte, i int) int {
	line, _, _ := strictjson.Locate(trace, fmt.Sprintf("requests[%d]", i))
	return line
}

// scoreSHA256Hex is the hex SHA-256 of data.
func scoreSHA256Hex(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}
