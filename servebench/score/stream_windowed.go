package score

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io"
	"os"
	"path/filepath"

	"github.com/servebench/servebench/internal/strictjson"
	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/servebench/report"
	"github.com/servebench/servebench/servebench/schedule"
)

// scoreRunDirWindowed is RunDir for a run in the runner's plain shape
// (single-turn entries, one attempt each) with no state per request: no
// copy of the schedule and no index of the outcome lines. Each pass reads
// outcomes.jsonl line by line and schedule.json alongside it through an
// entryWindow, which holds only the entries read but not yet matched by a
// line (about the requests that were in flight when a line was written).
// A first pass checks the join and hashes both files; the second scores;
// a third, when the run had a steady state, measures it. Requests with no
// record come last, in schedule order, as the compact path gives them.
//
// It returns errWindowDeclined for anything outside that shape, before
// any request entry is written, and the caller scores the compact way.
func scoreRunDirWindowed(dir string, opts Options, out io.Writer) (*report.Report, error) {
	schedPath := filepath.Join(dir, record.ScheduleFile)
	outPath := filepath.Join(dir, record.OutcomesFile)
	head, outSHA, schedSHA, err := checkWindowedJoin(outPath, schedPath)
	if err != nil {
		return nil, err
	}
	prev, err := readPreviousReportHead(filepath.Join(dir, record.ReportFile))
	if err != nil {
		return nil, err
	}
	opts = optionsFromPrevious(opts, prev, head)
	set, err := resolveScoreSetup(opts, head.WindowMS, head.ScheduleLagToleranceMS)
	if err != nil {
		return nil, err
	}
	closed := head.Mode == schedule.ModeClosed
	sc := newStreamScoring(set, runShape{closed: closed}, out)
	defer sc.close()
	pass := windowedPass{outPath: outPath, schedPath: schedPath, closed: closed, set: set}
	if err := pass.score(sc.audits, sc.emit, sc.emit); err != nil {
		return nil, err
	}
	rep, err := sc.finish(func(add func(*scoreRecord) error) error {
		return pass.score(newAuditTally(), add, nil)
	})
	if err != nil {
		return nil, err
	}
	rep.Inputs.WorkloadSHA256 = head.WorkloadSHA256
	rep.Inputs.ScheduleSHA256 = schedSHA
	rep.Inputs.OutcomesSHA256 = outSHA
	carryPrevious(rep, prev)
	return rep, nil
}

// checkWindowedJoin is the first pass: every line names a pending entry
// of the schedule with attempt 1, no two entries share an ID, and both
// files are hashed. What the join does not take declines
// (errWindowDeclined), and so does every input error: the compact path
// reads the files again and says what it makes of them.
func checkWindowedJoin(outPath, schedPath string) (*schedule.Schedule, string, string, error) {
	w, err := openWindow(schedPath, true)
	if err != nil {
		return nil, "", "", windowDecline(err)
	}
	defer w.close()
	f, err := os.Open(outPath)
	if err != nil {
		return nil, "", "", errWindowDeclined
	}
	defer f.Close()
	h := sha256.New()
	var o record.Outcome
	err = eachLine(io.TeeReader(f, h), func(number int, line []byte) error {
		if number > 1<<31-1 {
			return errWindowDeclined
		}
		id, attempt, ok := leadingIDAttempt(line)
		if !ok {
			if !record.DecodeFast(line, &o) && strictjson.Decode(line, &o) != nil {
				return errWindowDeclined
			}
			id, attempt = []byte(o.ID), o.Attempt
		}
		if attempt != 1 {
			return errWindowDeclined // a retried request: the compact path finds its final attempt
		}
		_, found, err := w.take(id)
		if err == nil && !found {
			err = errWindowDeclined // an unknown or repeated ID
		}
		return err
	})
	if err == nil {
		err = w.rest(func(*windowEntry) error { return nil })
	}
	if err != nil {
		return nil, "", "", windowDecline(err)
	}
	return &w.st.Head, hex.EncodeToString(h.Sum(nil)), w.st.SHA256(), nil
}

// windowDecline turns what the first pass met into a decline, so that the
// compact path judges the input.
func windowDecline(err error) error {
	if errors.Is(err, schedule.ErrStreamDeclined) || errors.Is(err, errWindowDeclined) {
		return errWindowDeclined
	}
	return err
}

// windowedPass is one scoring read of a run the first pass checked.
type windowedPass struct {
	outPath, schedPath string
	closed             bool
	set                scoreSetup
}

// score decodes every line, joins it to its entry and hands its record to
// emit; then, when unrecorded is set, the entries no line took that lie
// in the window, in schedule order. A line the join no longer takes means
// that a file changed between the passes.
func (p windowedPass) score(audits *auditTally, emit, unrecorded func(*scoreRecord) error) error {
	w, err := openWindow(p.schedPath, false)
	if err != nil {
		return err
	}
	defer w.close()
	f, err := os.Open(p.outPath)
	if err != nil {
		return &record.InputError{File: p.outPath, Msg: err.Error()}
	}
	defer f.Close()
	batches, free := make(chan *outcomeBatch, 4), make(chan *outcomeBatch, 6)
	for range cap(free) {
		free <- &outcomeBatch{outcomes: make([]record.Outcome, 512)}
	}
	go decodeOutcomeLines(f, batches, free)
	defer func() {
		for range batches { // let the decoder finish after an early return
		}
	}()
	var id []byte
	for b := range batches {
		for k := range b.outcomes {
			o := &b.outcomes[k]
			id = append(id[:0], o.ID...)
			e, found, err := w.take(id)
			if err == nil && !found {
				err = schedule.ErrStreamDeclined
			}
			if err == nil {
				err = p.scoreLine(o, e, emit)
			}
			if err != nil {
				return windowChanged(err)
			}
			audits.add(o, e.audited)
		}
		if b.err != nil {
			return b.err
		}
		free <- b
	}
	if unrecorded == nil {
		return nil
	}
	return windowChanged(w.rest(func(e *windowEntry) error {
		if !p.set.inWindow(e.scheduled) {
			return nil
		}
		rec := scoreRecord{id: e.id, class: e.class, adapter: e.adapter, session: -1, status: record.StatusNotSent,
			scheduled: e.scheduled, errMsg: report.NoOutcomeRecordError}
		return unrecorded(&rec)
	}))
}

// windowChanged reads a decline of the window after the first pass as a
// changed file, which the strict reader then reads.
func windowChanged(err error) error {
	if errors.Is(err, errWindowDeclined) {
		return schedule.ErrStreamDeclined
	}
	return err
}

// scoreLine scores one line's record, joined to its entry, when its
// request lies in the window (a truncated turn outside it marks its
// session).
func (p windowedPass) scoreLine(o *record.Outcome, e *windowEntry, emit func(*scoreRecord) error) error {
	scheduled := e.scheduled
	if p.closed {
		scheduled = o.ScheduledMS
	}
	rec, err := recordFromOutcome(o, scheduled, e.class, func(string, string, ...any) error {
		return schedule.ErrStreamDeclined
	})
	if err != nil {
		return err
	}
	if rec.adapter == "" {
		rec.adapter = e.adapter
	}
	if !p.set.inWindow(scheduled) {
		if rec.truncated {
			rec.outsideWindow = true // its session's; not offered
			return emit(&rec)
		}
		return nil
	}
	return emit(&rec)
}
