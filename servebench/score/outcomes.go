package score

import (
	"fmt"
	"slices"

	"github.com/servebench/servebench/internal/numfmt"
	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/servebench/report"
	"github.com/servebench/servebench/servebench/schedule"
)

// Score scores a run's outcome records against its schedule: the runner's
// path, and the core of `servebench score --run`.
//
// The cohort is the schedule's entries scheduled in the half-open window
// (opts.WindowMS, else the schedule's). Each entry's logical result is its
// final attempt (the highest attempt number); earlier attempts stay in the
// outcome file but are not counted again. The schedule lag of a retried
// request is its first attempt's (the generator's punctuality), its
// latencies are the final attempt's, and its TTFT from the schedule covers
// the whole wait. A scheduled entry with no record
// at all (an interrupted run) is scored as not_sent, and the report says so
// among its invalid reasons. A record whose ID the schedule does not hold,
// two records with the same ID and attempt, or a record that breaks the
// clock rules (non-finite or negative times, content before the send or
// after the terminal, out-of-order events, a success without content) is an
// error: nothing is merged or repaired silently.
//
// Quality comes from each record's Quality verdict; nil is unscored (it
// neither passes nor fails, and the attainment kind says so).
func Outcomes(s *schedule.Schedule, outcomes []record.Outcome, opts Options) (*report.Report, error) {
	return scoreOutcomes(s, outcomes, opts, outcomeSource{})
}

// outcomeSource locates records for error messages: the file they came from
// and the line of each, when they were read from one.
type outcomeSource struct {
	file  string
	lines []int
	data  [][]byte
}

func (src outcomeSource) errorAt(i int, id, field, format string, args ...any) error {
	if src.file == "" {
		return &record.InputError{ID: id, Field: field, Msg: fmt.Sprintf(format, args...)}
	}
	return record.InputErrorAt(src.file, src.lines[i], src.data[i], id, field, format, args...)
}

// scoreOutcomes is Score, with src locating records in error messages.
func scoreOutcomes(s *schedule.Schedule, outcomes []record.Outcome, opts Options, src outcomeSource) (*report.Report, error) {
	if s == nil {
		return nil, fmt.Errorf("score: no schedule")
	}
	set, err := resolveScoreSetup(opts, s.WindowMS, s.ScheduleLagToleranceMS)
	if err != nil {
		return nil, err
	}
	byID, err := indexScheduleEntries(s, src)
	if err != nil {
		return nil, err
	}
	a, err := findAttempts(outcomes, byID, len(s.Entries), src)
	if err != nil {
		return nil, err
	}
	if a.retried {
		if err := checkEarlierAttempts(s, outcomes, byID, a.final, src); err != nil {
			return nil, err
		}
	}
	turns := conversationTurns(s)
	recs, truncated, err := cohortRecords(s, outcomes, set, a, turns, src)
	if err != nil {
		return nil, err
	}
	if len(recs) == 0 {
		return nil, &record.InputError{File: src.scheduleFile(), Field: "entries",
			Msg: fmt.Sprintf("no request is scheduled in the window [%s, %s) ms: nothing to score", numfmt.Compact(set.window[0]), numfmt.Compact(set.window[1]))}
	}
	shape := runShape{closed: s.Mode == schedule.ModeClosed, truncated: truncated, phases: s.Arrival.Phases}
	if turns != nil {
		shape.sessionLength = turns.sessionLength
	}
	rep := scoreRecords(set, recs, shape)
	rep.Inputs.WorkloadSHA256 = s.WorkloadSHA256
	audits := newAuditTally()
	for i := range outcomes {
		if k, ok := byID[outcomes[i].ID]; ok {
			audits.add(&outcomes[i], auditedEntry(&s.Entries[k]))
		}
	}
	audits.finish(rep)
	return rep, nil
}

// indexScheduleEntries maps each schedule entry's ID to its index, and
// refuses an empty or repeated ID or an invalid scheduled time.
func indexScheduleEntries(s *schedule.Schedule, src outcomeSource) (map[string]int, error) {
	byID := make(map[string]int, len(s.Entries))
	for i := range s.Entries {
		e := &s.Entries[i]
		if e.ID == "" {
			return nil, &record.InputError{File: src.scheduleFile(), Field: fmt.Sprintf("entries[%d].id", i), Msg: "empty request ID"}
		}
		if _, dup := byID[e.ID]; dup {
			return nil, &record.InputError{File: src.scheduleFile(), ID: e.ID, Field: fmt.Sprintf("entries[%d].id", i), Msg: "duplicate request ID in the schedule"}
		}
		if msg := record.CheckTime(e.ScheduledMS); msg != "" {
			return nil, &record.InputError{File: src.scheduleFile(), ID: e.ID, Field: fmt.Sprintf("entries[%d].scheduled_ms", i), Msg: msg}
		}
		byID[e.ID] = i
	}
	return byID, nil
}

// entryAttempts locates each schedule entry's attempts among the outcome
// records: final[i] is the index in outcomes of entry i's last attempt, or
// -1; firstTry[i] is its first attempt's, once it was retried; retried
// says whether any entry was.
type entryAttempts struct {
	final    []int32
	firstTry map[int]int
	retried  bool
}

// findAttempts finds each entry's first and last attempts, refusing a
// record whose ID the schedule does not hold, an attempt number below 1,
// and a second record for the same attempt.
func findAttempts(outcomes []record.Outcome, byID map[string]int, entries int, src outcomeSource) (entryAttempts, error) {
	a := entryAttempts{final: make([]int32, entries), firstTry: map[int]int{}}
	for i := range a.final {
		a.final[i] = -1
	}
	var attempts map[int][]int // entry -> attempt numbers, only for retried entries
	for k := range outcomes {
		o := &outcomes[k]
		i, ok := byID[o.ID]
		if !ok {
			return a, src.errorAt(k, o.ID, "id", "no request with this ID in the schedule")
		}
		if o.Attempt < 1 {
			return a, src.errorAt(k, o.ID, "attempt", "want an attempt number >= 1, got %d", o.Attempt)
		}
		prev := a.final[i]
		if prev < 0 {
			a.final[i] = int32(k)
			continue
		}
		if attempts == nil {
			attempts = map[int][]int{}
		}
		seen, tracked := attempts[i]
		if !tracked {
			seen = []int{outcomes[prev].Attempt}
			a.firstTry[i] = int(prev)
		}
		if slices.Contains(seen, o.Attempt) {
			return a, src.errorAt(k, o.ID, "attempt", "a second record for attempt %d: attempts are never merged", o.Attempt)
		}
		attempts[i] = append(seen, o.Attempt)
		if o.Attempt < outcomes[a.firstTry[i]].Attempt {
			a.firstTry[i] = k
		}
		if o.Attempt > outcomes[prev].Attempt {
			a.final[i] = int32(k)
		}
	}
	a.retried = attempts != nil
	return a, nil
}

// checkEarlierAttempts checks the records that are not their entry's final
// attempt. Earlier attempts are not scored, but they are records of the
// run (the first one's send time judges the generator): they obey the same
// clock rules.
func checkEarlierAttempts(s *schedule.Schedule, outcomes []record.Outcome, byID map[string]int, final []int32, src outcomeSource) error {
	for k := range outcomes {
		o := &outcomes[k]
		i := byID[o.ID]
		if int(final[i]) == k {
			continue
		}
		e := &s.Entries[i]
		if _, err := recordFromOutcome(o, scheduledOf(s, e, o), e.Class, func(field, format string, args ...any) error {
			return src.errorAt(k, o.ID, field, format, args...)
		}); err != nil {
			return err
		}
	}
	return nil
}

// cohortRecords converts each entry's final attempt, checking it even when
// it falls outside the window, and returns the records scheduled in the
// window: an entry with no record at all is not_sent, and a retried one
// keeps its first attempt's send time. truncated lists the sessions (by
// their first turn's index) of the turns outside the window that a closed
// loop's deadline truncated.
func cohortRecords(s *schedule.Schedule, outcomes []record.Outcome, set scoreSetup, a entryAttempts, turns entryTurns, src outcomeSource) (recs []scoreRecord, truncated []int, err error) {
	recs = make([]scoreRecord, 0, len(s.Entries))
	for i := range s.Entries {
		e := &s.Entries[i]
		k := a.final[i]
		if k < 0 {
			if !set.inWindow(e.ScheduledMS) {
				continue
			}
			recs = append(recs, scoreRecord{
				id: e.ID, class: e.Class, adapter: e.Adapter, turn: turns.of(i), session: turns.sessionOf(i), status: record.StatusNotSent, scheduled: e.ScheduledMS,
				errMsg: report.NoOutcomeRecordError,
			})
			continue
		}
		o := &outcomes[k]
		scheduled := scheduledOf(s, e, o)
		// A record outside the window is checked too, though not offered.
		rec, err := recordFromOutcome(o, scheduled, e.Class, func(field, format string, args ...any) error {
			return src.errorAt(int(k), o.ID, field, format, args...)
		})
		if err != nil {
			return nil, nil, err
		}
		if rec.adapter == "" {
			rec.adapter = e.Adapter
		}
		rec.turn, rec.session = turns.of(i), turns.sessionOf(i)
		if !set.inWindow(scheduled) {
			if rec.truncated {
				truncated = append(truncated, rec.session)
			}
			continue
		}
		if j, retried := a.firstTry[i]; retried && j != int(k) && outcomes[j].SentMS != nil {
			rec.firstSent = outcomes[j].SentMS
		}
		recs = append(recs, rec)
	}
	return recs, truncated, nil
}

// scheduledOf is a request's scheduled time a: the schedule's, except in
// closed loop and for later turns of a conversation, where it is fixed at
// run time and the outcome holds the real value.
func scheduledOf(s *schedule.Schedule, e *schedule.Entry, o *record.Outcome) float64 {
	if s.Mode == schedule.ModeClosed || e.DependsOn != "" {
		return o.ScheduledMS
	}
	return e.ScheduledMS
}

// scheduleFile names the schedule in errors when records came from a run
// directory.
func (src outcomeSource) scheduleFile() string {
	if src.file == "" {
		return ""
	}
	return scheduleFileBeside(src.file)
}

// visibleOutputTokens is n for the visible answer: the output token count
// less the reasoning tokens the engine reported, since usage counts both
// while first and last content (f, l) time the visible answer alone, after
// the reasoning. Without a reasoning count it is the output count as
// reported.
func visibleOutputTokens(o *record.Outcome) *int {
	if o.OutputTokens == nil || o.ReasoningTokens == nil || *o.ReasoningTokens <= 0 || *o.ReasoningTokens >= *o.OutputTokens {
		return o.OutputTokens
	}
	return new(*o.OutputTokens - *o.ReasoningTokens)
}

// checkContentForStatus checks a record's content events against its kind
// and status: a record with items (an API without a first token) has none,
// and any other success has at least one.
func checkContentForStatus(o *record.Outcome, fail func(field, format string, args ...any) error) error {
	if o.Items != nil && len(o.ContentMS) > 0 {
		return fail("content_ms", "%d content events in a record with items (an API without a first token has none)", len(o.ContentMS))
	}
	if o.Status == record.StatusSuccess && len(o.ContentMS) == 0 && o.Items == nil {
		return fail("content_ms", "status success with no content event (an empty successful output is empty_output)")
	}
	return nil
}

// recordFromOutcome checks one outcome record against the clock rules and
// converts it. fail builds an error for a field.
func recordFromOutcome(o *record.Outcome, scheduled float64, class string, fail func(field, format string, args ...any) error) (scoreRecord, error) {
	rec := baseRecordOf(o, scheduled, class)
	if err := checkOutcomeClocks(o, scheduled, fail); err != nil {
		return rec, err
	}
	if err := checkOutcomeContent(o, fail); err != nil {
		return rec, err
	}
	tokenLevel, err := checkOutcomeTokens(o, fail)
	if err != nil {
		return rec, err
	}
	rec.tokenLevel = tokenLevel
	rec.quality, rec.qualityEvidence = qualityOf(o.Quality)
	return rec, nil
}

// baseRecordOf is a record's fields as recordFromOutcome copies them,
// before its checks.
func baseRecordOf(o *record.Outcome, scheduled float64, class string) scoreRecord {
	rec := scoreRecord{id: o.ID, class: o.Class, backend: o.Backend, adapter: o.Adapter, tenant: o.Tenant, objective: o.Objective,
		status: o.Status, scheduled: scheduled,
		terminal: o.TerminalMS, hasTerminal: true, content: o.ContentMS, eventTokens: o.EventTokens,
		outputTokens: visibleOutputTokens(o), slot: o.SlotMS, sent: o.SentMS, errMsg: o.Error,
		items: o.Items, inputTokens: o.PromptTokens, cachedTokens: o.CachedTokens, reusableTokens: o.ReusablePromptTokens,
		stopped:   o.Status == record.StatusNotSent && o.Reason == record.ReasonConversationStopped,
		truncated: o.Status == record.StatusNotSent && o.Reason == record.ReasonSessionTruncated, session: -1}
	if rec.class == "" {
		rec.class = class
	}
	if m := o.Modality(); m != record.ModalityText {
		rec.modality = m
	}
	return rec
}

// outcomeCheck is what checkOutcomeAlone found of one record.
type outcomeCheck struct {
	// ok: the record passed every check that needs no schedule entry.
	ok bool
	// tokenLevel is checkOutcomeTokens' answer.
	tokenLevel bool
}

// checkOutcomeAlone runs the checks of recordFromOutcome that need no
// schedule entry (all but that of the scheduled time), so that the
// streamed scorer's decoding goroutine runs them while the scoring one
// joins and scores earlier lines. It says only whether they passed: the
// streamed scorer declines any record that fails, and the strict reader
// then names the field.
func checkOutcomeAlone(o *record.Outcome) outcomeCheck {
	fail := func(string, string, ...any) error { return schedule.ErrStreamDeclined }
	if !o.Status.Valid() || record.CheckTime(o.TerminalMS) != "" || (o.SlotMS != nil && record.CheckTime(*o.SlotMS) != "") {
		return outcomeCheck{}
	}
	if checkSendTime(o, fail) != nil || checkOutcomeContent(o, fail) != nil {
		return outcomeCheck{}
	}
	tokenLevel, err := checkOutcomeTokens(o, fail)
	return outcomeCheck{ok: err == nil, tokenLevel: tokenLevel}
}

// recordFromChecked is recordFromOutcome for a record that
// checkOutcomeAlone passed: only its scheduled time is left to check;
// false when that fails.
func recordFromChecked(o *record.Outcome, c outcomeCheck, scheduled float64, class string) (scoreRecord, bool) {
	rec := baseRecordOf(o, scheduled, class)
	if !c.ok || record.CheckTime(scheduled) != "" {
		return rec, false
	}
	rec.tokenLevel = c.tokenLevel
	rec.quality, rec.qualityEvidence = qualityOf(o.Quality)
	return rec, true
}

// checkOutcomeClocks checks a record's status and times: a known status,
// finite non-negative scheduled, terminal and slot times, and a send time
// that fits the status.
func checkOutcomeClocks(o *record.Outcome, scheduled float64, fail func(field, format string, args ...any) error) error {
	if !o.Status.Valid() {
		return fail("status", "unknown status %q", o.Status)
	}
	if err := checkTimeField("scheduled_ms", scheduled, fail); err != nil {
		return err
	}
	if err := checkTimeField("terminal_ms", o.TerminalMS, fail); err != nil {
		return err
	}
	if o.SlotMS != nil {
		if err := checkTimeField("slot_ms", *o.SlotMS, fail); err != nil {
			return err
		}
	}
	return checkSendTime(o, fail)
}

// checkTimeField checks one record time with checkRecordTime.
func checkTimeField(field string, v float64, fail func(field, format string, args ...any) error) error {
	if msg := record.CheckTime(v); msg != "" {
		return fail(field, "%s", msg)
	}
	return nil
}

// checkSendTime checks a record's send time against its status: a not_sent
// record has neither a send time nor content; a record without a send time
// got no response and has no content; a send time is a valid time, no
// later than the terminal and the content events.
func checkSendTime(o *record.Outcome, fail func(field, format string, args ...any) error) error {
	switch {
	case o.Status == record.StatusNotSent:
		if o.SentMS != nil {
			return fail("sent_ms", "a not_sent record has a send time %v", *o.SentMS)
		}
		if len(o.ContentMS) > 0 {
			return fail("content_ms", "a not_sent record has %d content events", len(o.ContentMS))
		}
	case o.SentMS == nil:
		// A request that failed before the transport obtained a connection
		// (a refused connection, a deadline passed while dialing) has no
		// send time; anything that got a response must have one.
		if o.Status == record.StatusSuccess || o.Status == record.StatusEmptyOutput || o.Status == record.StatusHTTPError || o.Status == record.StatusRejected {
			return fail("sent_ms", "missing send time for status %s (a request never sent is not_sent)", o.Status)
		}
		if len(o.ContentMS) > 0 {
			return fail("content_ms", "%d content events without a send time", len(o.ContentMS))
		}
	default:
		d := *o.SentMS
		if err := checkTimeField("sent_ms", d, fail); err != nil {
			return err
		}
		if o.TerminalMS < d {
			return fail("terminal_ms", "terminal %v before sent %v", o.TerminalMS, d)
		}
		return checkEventTimes(o.ContentMS, d, o.TerminalMS, "content_ms", fail)
	}
	return nil
}

// checkOutcomeContent checks a record's content events against its kind
// and status, and its first and last content times, when given, against
// its content events.
func checkOutcomeContent(o *record.Outcome, fail func(field, format string, args ...any) error) error {
	if err := checkContentForStatus(o, fail); err != nil {
		return err
	}
	if o.Status == record.StatusEmptyOutput && len(o.ContentMS) > 0 {
		return fail("content_ms", "status empty_output with %d content events", len(o.ContentMS))
	}
	for _, p := range []struct {
		field string
		v     *float64
		want  float64
	}{{"first_content_ms", o.FirstContentMS, scoreFirstTime(o.ContentMS)}, {"last_content_ms", o.LastContentMS, scoreLastTime(o.ContentMS)}} {
		if p.v == nil {
			continue
		}
		if len(o.ContentMS) == 0 || *p.v != p.want {
			return fail(p.field, "%v disagrees with content_ms", *p.v)
		}
	}
	return nil
}

// checkOutcomeTokens checks a record's token counts: none negative, and
// one per content event when counted per event. It reports whether the
// record is token-level: each content event one token, and the output
// count the number of events.
func checkOutcomeTokens(o *record.Outcome, fail func(field, format string, args ...any) error) (bool, error) {
	if o.OutputTokens != nil && *o.OutputTokens < 0 {
		return false, fail("output_tokens", "negative token count %d", *o.OutputTokens)
	}
	if o.CachedTokens != nil && *o.CachedTokens < 0 {
		return false, fail("cached_tokens", "negative token count %d", *o.CachedTokens)
	}
	if o.EventTokens == nil {
		return false, nil
	}
	if len(o.EventTokens) != len(o.ContentMS) {
		return false, fail("event_tokens", "%d entries for %d content events", len(o.EventTokens), len(o.ContentMS))
	}
	all1 := true
	for j, t := range o.EventTokens {
		if t < 0 {
			return false, fail(fmt.Sprintf("event_tokens[%d]", j), "negative token count %d", t)
		}
		all1 = all1 && t == 1
	}
	return all1 && o.OutputTokens != nil && *o.OutputTokens == len(o.ContentMS), nil
}

// qualityOf is a record's quality judgment and, for a failure, its
// evidence: the check's name, then what it found.
func qualityOf(v *record.Verdict) (qualityJudgment, string) {
	switch {
	case v == nil:
		return qualityUnscored, ""
	case v.Pass:
		return qualityPass, ""
	}
	evidence := v.Check
	if v.Evidence != "" {
		evidence += ": " + v.Evidence
	}
	return qualityFail, evidence
}

// checkEventTimes checks that event times are finite, at or after sent, at
// or before terminal, and in order (equal times are allowed: the clock has a
// finite resolution).
func checkEventTimes(ts []float64, sent, terminal float64, field string, fail func(field, format string, args ...any) error) error {
	for j, t := range ts {
		if scoreFinite(t) && t >= sent && t <= terminal && (j == 0 || t >= ts[j-1]) {
			continue
		}
		f := fmt.Sprintf("%s[%d]", field, j)
		switch {
		case !scoreFinite(t):
			return fail(f, "non-finite time %v", t)
		case t < sent:
			return fail(f, "event at %v before sent %v", t, sent)
		case t > terminal:
			return fail(f, "event at %v after terminal %v", t, terminal)
		default:
			return fail(f, "event at %v before the previous event at %v: events out of order", t, ts[j-1])
		}
	}
	return nil
}

func scoreFirstTime(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	return xs[0]
}

func scoreLastTime(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	return xs[len(xs)-1]
}
