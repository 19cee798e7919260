package score

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"hash"
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
// One pass checks the join, hashes both files and scores, and starts over
// the compact way should the join decline: without request entries (out
// nil), or with them written to a writer that can take them back (a
// regular file: what the pass wrote is cut off again on a decline). To any
// other writer, a first pass checks the join and hashes both files, and
// the second scores. A last pass, when the run had a steady state,
// measures it. Requests with no record come last, in schedule order, as
// the compact path gives them.
//
// It returns errWindowDeclined for anything outside that shape, with no
// request entry left written, and the caller scores the compact way.
func scoreRunDirWindowed(dir string, opts Options, out io.Writer) (*report.Report, error) {
	schedPath := filepath.Join(dir, record.ScheduleFile)
	outPath := filepath.Join(dir, record.OutcomesFile)
	var head *schedule.Schedule
	var sums windowSums
	var err error
	rw, rewindable := rewindableAt(out)
	onePass := out == nil || rewindable
	if onePass {
		head, err = readWindowHead(schedPath)
	} else {
		head, sums, err = checkWindowedJoin(outPath, schedPath)
	}
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
	sc := newStreamScoring(set, runShape{closed: closed, phases: head.Arrival.Phases}, out)
	defer sc.close()
	pass := windowedPass{outPath: outPath, schedPath: schedPath, closed: closed, set: set, checks: onePass}
	scored, err := pass.score(sc.audits, sc.emit, sc.emit)
	if onePass {
		sums = scored
		err = windowDecline(err)
		if errors.Is(err, errWindowDeclined) && rewindable {
			// The entries written so far go: the compact path writes them all.
			if rerr := rw.rewind(); rerr != nil {
				return nil, rerr
			}
		}
	}
	if err != nil {
		return nil, err
	}
	pass.checks = false
	rep, err := sc.finish(func(add func(*scoreRecord) error) error {
		_, err := pass.score(newAuditTally(), add, nil)
		return err
	})
	if err != nil {
		return nil, err
	}
	rep.Inputs.WorkloadSHA256 = head.WorkloadSHA256
	rep.Inputs.ScheduleSHA256 = sums.schedule
	rep.Inputs.OutcomesSHA256 = sums.outcomes
	carryPrevious(rep, prev)
	return rep, nil
}

// windowSums are the hex SHA-256 of the two files.
type windowSums struct{ schedule, outcomes string }

// readWindowHead reads the schedule's fields before its entries.
func readWindowHead(schedPath string) (*schedule.Schedule, error) {
	st, err := schedule.OpenEntries(schedPath)
	if err != nil {
		return nil, windowDecline(err)
	}
	defer st.Close()
	return &st.Head, nil
}

// checkWindowedJoin is the first pass: every line names a pending entry
// of the schedule with attempt 1, no two entries share an ID, and both
// files are hashed. What the join does not take declines
// (errWindowDeclined), and so does every input error: the compact path
// reads the files again and says what it makes of them.
func checkWindowedJoin(outPath, schedPath string) (*schedule.Schedule, windowSums, error) {
	w, err := openWindow(schedPath, true)
	if err != nil {
		return nil, windowSums{}, windowDecline(err)
	}
	defer w.close()
	f, err := os.Open(outPath)
	if err != nil {
		return nil, windowSums{}, errWindowDeclined
	}
	defer f.Close()
	h := sha256.New()
	var o record.Outcome
	ra := newReadAhead(f, h)
	defer ra.Close()
	err = eachLine(ra, func(number int, line []byte) error {
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
		return nil, windowSums{}, windowDecline(err)
	}
	return &w.st.Head, windowSums{schedule: w.st.SHA256(), outcomes: hex.EncodeToString(h.Sum(nil))}, nil
}

// windowDecline turns what the first pass met into a decline, so that the
// compact path judges the input.
func windowDecline(err error) error {
	if errors.Is(err, schedule.ErrStreamDeclined) || errors.Is(err, errWindowDeclined) {
		return errWindowDeclined
	}
	return err
}

// windowedPass is one scoring read of a run.
type windowedPass struct {
	outPath, schedPath string
	closed             bool
	set                scoreSetup
	// checks makes the pass check the join as checkWindowedJoin does, and
	// hash the files; otherwise a first pass checked it.
	checks bool
}

// score decodes every line, joins it to its entry and hands its record to
// emit; then, when unrecorded is set, the entries no line took that lie
// in the window, in schedule order. With checks it returns the files'
// hashes. Without, a line the join no longer takes means that a file
// changed since the pass that checked it.
func (p windowedPass) score(audits *auditTally, emit, unrecorded func(*scoreRecord) error) (windowSums, error) {
	w, err := openWindow(p.schedPath, p.checks)
	if err != nil {
		return windowSums{}, err
	}
	defer w.close()
	f, err := os.Open(p.outPath)
	if err != nil {
		return windowSums{}, &record.InputError{File: p.outPath, Msg: err.Error()}
	}
	defer f.Close()
	h := sha256.New()
	var sum hash.Hash
	if p.checks {
		sum = h
	}
	ra := newReadAhead(f, sum)
	defer ra.Close()
	dec := startLineDecoder(ra)
	defer dec.stop()
	var id []byte
	rec := new(scoreRecord) // reused: emit keeps none of it
	for b := range dec.batches {
		for k := range b.outcomes {
			if err := p.join(w, &b.outcomes[k], b.checks[k], &id, rec, audits, emit); err != nil {
				return windowSums{}, p.declined(err)
			}
		}
		if b.err != nil {
			return windowSums{}, b.err
		}
		dec.release(b)
	}
	if unrecorded == nil {
		return windowSums{}, nil
	}
	err = w.rest(func(e *windowEntry) error {
		if !p.set.inWindow(e.scheduled) {
			return nil
		}
		rec := scoreRecord{id: e.id, class: e.class, adapter: e.adapter, session: -1, status: record.StatusNotSent,
			scheduled: e.scheduled, errMsg: report.NoOutcomeRecordError}
		return unrecorded(&rec)
	})
	if err != nil {
		return windowSums{}, p.declined(err)
	}
	return windowSums{schedule: w.st.SHA256(), outcomes: hex.EncodeToString(h.Sum(nil))}, nil
}

// join joins one decoded line to its entry, scores it and audits it; id
// is a buffer for the line's ID, rec one for its record.
func (p windowedPass) join(w *entryWindow, o *record.Outcome, c outcomeCheck, id *[]byte, rec *scoreRecord, audits *auditTally, emit func(*scoreRecord) error) error {
	if p.checks && o.Attempt != 1 {
		return errWindowDeclined // a retried request: the compact path finds its final attempt
	}
	*id = append((*id)[:0], o.ID...)
	e, found, err := w.take(*id)
	if err == nil && !found {
		err = errWindowDeclined // an unknown or repeated ID
	}
	if err == nil {
		err = p.scoreLine(o, c, e, rec, emit)
	}
	if err != nil {
		return err
	}
	audits.add(o, e.audited)
	return nil
}

// declined is what a pass returns for a decline: with checks, the
// window's own; without, a changed file, which the strict reader reads.
func (p windowedPass) declined(err error) error {
	if !p.checks && errors.Is(err, errWindowDeclined) {
		return schedule.ErrStreamDeclined
	}
	return err
}

// scoreLine scores one line's record, joined to its entry, when its
// request lies in the window (a truncated turn outside it marks its
// session); c is what the decoder's checks found, and rec is filled with
// the record.
func (p windowedPass) scoreLine(o *record.Outcome, c outcomeCheck, e *windowEntry, rec *scoreRecord, emit func(*scoreRecord) error) error {
	scheduled := e.scheduled
	if p.closed {
		scheduled = o.ScheduledMS
	}
	var ok bool
	if *rec, ok = recordFromChecked(o, c, scheduled, e.class); !ok {
		return schedule.ErrStreamDeclined
	}
	if rec.adapter == "" {
		rec.adapter = e.adapter
	}
	if !p.set.inWindow(scheduled) {
		if rec.truncated {
			rec.outsideWindow = true // its session's; not offered
			return emit(rec)
		}
		return nil
	}
	return emit(rec)
}
