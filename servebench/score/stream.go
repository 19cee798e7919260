package score

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strconv"

	"github.com/servebench/servebench/internal/strictjson"
	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/servebench/report"
	"github.com/servebench/servebench/servebench/schedule"
)

// scoreRunDirStreaming is RunDir in bounded memory. A run in the
// runner's plain shape (single-turn entries, one attempt each) is joined
// to its schedule through a window (scoreRunDirWindowed), and holds no
// per-request state; any other is scored from the compact schedule.
func scoreRunDirStreaming(dir string, opts Options, out io.Writer) (*report.Report, error) {
	rep, err := scoreRunDirWindowed(dir, opts, out)
	if !errors.Is(err, errWindowDeclined) {
		return rep, err
	}
	return scoreRunDirCompact(dir, opts, out)
}

// scoreRunDirCompact is RunDir with the schedule held compactly (about 30
// bytes an entry): outcomes.jsonl is read twice line by line (a light
// first pass finds each request's final attempt, the second scores), and
// every latency population is counted rather than kept. Request entries
// go to out as JSON lines when out is set, in the order of outcomes.jsonl
// and then, for requests with no record, in schedule order; they are not
// kept in the Report.
//
// It returns errStreamDeclined for any input error, and for inputs outside
// the runner's plain shape it leaves to the strict reader: the caller then
// scores in memory, which names the file, line and field of the error.
func scoreRunDirCompact(dir string, opts Options, out io.Writer) (*report.Report, error) {
	cs, err := schedule.ReadCompact(filepath.Join(dir, record.ScheduleFile))
	if err != nil {
		return nil, err
	}
	prev, err := readPreviousReportHead(filepath.Join(dir, record.ReportFile))
	if err != nil {
		return nil, err
	}
	opts = optionsFromPrevious(opts, prev, &cs.Head)
	set, err := resolveScoreSetup(opts, cs.Head.WindowMS, cs.Head.ScheduleLagToleranceMS)
	if err != nil {
		return nil, err
	}
	outPath := filepath.Join(dir, record.OutcomesFile)
	idx, outSHA, err := indexOutcomes(outPath, cs)
	if err != nil {
		return nil, err
	}
	shape := runShape{closed: cs.Head.Mode == schedule.ModeClosed, phases: cs.Head.Arrival.Phases}
	if cs.SessionOf(0) >= 0 {
		shape.sessionLength = cs.SessionLength
	}
	sc := newStreamScoring(set, shape, out)
	defer sc.close()
	if err := scoreOutcomeLines(outPath, cs, idx, set, sc.audits, sc.emit); err != nil {
		return nil, err
	}
	for i := range cs.Len() {
		if idx.final[i] != 0 || !set.inWindow(cs.Scheduled[i]) {
			continue
		}
		rec := scoreRecord{id: string(cs.ID(i)), class: cs.Class(i), adapter: cs.Adapter(i), turn: cs.Turn(i), session: cs.SessionOf(i), status: record.StatusNotSent,
			scheduled: cs.Scheduled[i], errMsg: report.NoOutcomeRecordError}
		if err := sc.emit(&rec); err != nil {
			return nil, err
		}
	}
	rep, err := sc.finish(func(add func(*scoreRecord) error) error {
		// A third read of outcomes.jsonl measures the steady window, so
		// that memory stays bounded; unrecorded requests were never sent.
		return scoreOutcomeLines(outPath, cs, idx, set, newAuditTally(), add)
	})
	if err != nil {
		return nil, err
	}
	rep.Inputs.WorkloadSHA256 = cs.Head.WorkloadSHA256
	rep.Inputs.ScheduleSHA256 = cs.SHA256
	rep.Inputs.OutcomesSHA256 = outSHA
	carryPrevious(rep, prev)
	return rep, nil
}

// outcomeIndex says, per schedule entry, which line of outcomes.jsonl holds
// its final attempt (0: none), and for retried entries which holds the
// first.
type outcomeIndex struct {
	final   []int32
	attempt []int32
	// entry[k] is the entry of line k+1 (-1 for a blank line).
	entry []int32
	// firstTry maps a retried entry to its first attempt's line.
	firstTry map[int32]int32
	attempts map[int32][]int32
}

// indexOutcomes is the first pass: it reads each line's ID and attempt
// (from the runner's leading `{"id":"…","attempt":N,` without a full
// decode), and hashes the file.
func indexOutcomes(path string, cs *schedule.Compact) (*outcomeIndex, string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, "", &record.InputError{File: path, Msg: err.Error()}
	}
	defer f.Close()
	h := sha256.New()
	idx := &outcomeIndex{final: make([]int32, cs.Len()), attempt: make([]int32, cs.Len())}
	var o record.Outcome
	ra := newReadAhead(f, h)
	defer ra.Close()
	err = eachLine(ra, func(number int, line []byte) error {
		if number > 1<<31-1 {
			return schedule.ErrStreamDeclined
		}
		id, attempt, ok := leadingIDAttempt(line)
		if !ok {
			if !record.DecodeFast(line, &o) && strictjson.Decode(line, &o) != nil {
				return schedule.ErrStreamDeclined
			}
			id, attempt = []byte(o.ID), o.Attempt
		}
		i := cs.Lookup(id)
		if i < 0 || attempt < 1 || attempt > 1<<31-1 {
			return schedule.ErrStreamDeclined
		}
		for len(idx.entry) < number-1 {
			idx.entry = append(idx.entry, -1)
		}
		idx.entry = append(idx.entry, int32(i))
		return idx.note(int32(i), int32(attempt), int32(number))
	})
	if err != nil {
		return nil, "", err
	}
	return idx, hex.EncodeToString(h.Sum(nil)), nil
}

// note records that line holds entry i's attempt.
func (idx *outcomeIndex) note(i, attempt, line int32) error {
	if idx.final[i] == 0 {
		idx.final[i], idx.attempt[i] = line, attempt
		return nil
	}
	if idx.attempts == nil {
		idx.attempts, idx.firstTry = map[int32][]int32{}, map[int32]int32{}
	}
	seen, tracked := idx.attempts[i]
	if !tracked {
		seen = []int32{idx.attempt[i]}
		idx.firstTry[i] = idx.final[i]
	}
	for _, a := range seen {
		if a == attempt {
			return schedule.ErrStreamDeclined // a second record for one attempt
		}
	}
	if attempt < minInt32(seen) {
		idx.firstTry[i] = line
	}
	idx.attempts[i] = append(seen, attempt)
	if attempt > idx.attempt[i] {
		idx.final[i], idx.attempt[i] = line, attempt
	}
	return nil
}

func minInt32(xs []int32) int32 {
	m := xs[0]
	for _, x := range xs[1:] {
		m = min(m, x)
	}
	return m
}

// scoreOutcomeLines is the second pass: it decodes every line, checks
// earlier attempts against the clock rules, and scores each final attempt
// in the window.
func scoreOutcomeLines(path string, cs *schedule.Compact, idx *outcomeIndex, set scoreSetup, audits *auditTally, emit func(*scoreRecord) error) error {
	f, err := os.Open(path)
	if err != nil {
		return &record.InputError{File: path, Msg: err.Error()}
	}
	defer f.Close()
	ra := newReadAhead(f, nil)
	defer ra.Close()
	dec := startLineDecoder(ra)
	defer dec.stop()
	firstSent := map[int32]*float64{} // retried entries whose first attempt was read
	closed := cs.Head.Mode == schedule.ModeClosed
	for b := range dec.batches {
		for k := range b.outcomes {
			if err := scoreOutcomeLine(&b.outcomes[k], b.checks[k], b.numbers[k], cs, idx, set, closed, firstSent, emit); err != nil {
				return err
			}
			// scoreOutcomeLine checked that the line's entry is known.
			audits.add(&b.outcomes[k], cs.Audited(int(idx.entry[b.numbers[k]-1])))
		}
		if b.err != nil {
			return b.err
		}
		dec.release(b)
	}
	return nil
}

// scoreOutcomeLine checks one decoded line (c: what the decoder's checks
// found) and scores it when it is its request's final attempt.
func scoreOutcomeLine(o *record.Outcome, c outcomeCheck, number int, cs *schedule.Compact, idx *outcomeIndex, set scoreSetup, closed bool,
	firstSent map[int32]*float64, emit func(*scoreRecord) error) error {
	if number-1 >= len(idx.entry) {
		return schedule.ErrStreamDeclined
	}
	i := idx.entry[number-1]
	if i < 0 || string(cs.ID(int(i))) != o.ID {
		return schedule.ErrStreamDeclined // the file changed between the passes
	}
	scheduled := cs.Scheduled[i]
	if closed || cs.Dependent[i] {
		scheduled = o.ScheduledMS
	}
	rec, ok := recordFromChecked(o, c, scheduled, cs.Class(int(i)))
	if !ok {
		return schedule.ErrStreamDeclined
	}
	if rec.adapter == "" {
		rec.adapter = cs.Adapter(int(i))
	}
	rec.turn, rec.session = cs.Turn(int(i)), cs.SessionOf(int(i))
	line32 := int32(number)
	if idx.final[i] != line32 {
		if idx.firstTry[i] == line32 {
			firstSent[i] = o.SentMS
		}
		return nil
	}
	if !set.inWindow(scheduled) {
		if rec.truncated {
			rec.outsideWindow = true // its session's; not offered
			return emit(&rec)
		}
		return nil
	}
	if j, retried := idx.firstTry[i]; retried && j != line32 {
		sent, read := firstSent[i]
		if !read {
			return schedule.ErrStreamDeclined // the first attempt comes later in the file
		}
		if sent != nil {
			rec.firstSent = sent
		}
	}
	return emit(&rec)
}

// eachLine calls f for every non-blank line (without its line ending) with
// its 1-based number. A line may be as long as 64 MiB.
func eachLine(r io.Reader, f func(number int, line []byte) error) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 1<<20), 64<<20)
	for number := 1; sc.Scan(); number++ {
		line := bytes.TrimSuffix(sc.Bytes(), []byte{'\r'})
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		if err := f(number, line); err != nil {
			return err
		}
	}
	if sc.Err() != nil {
		return schedule.ErrStreamDeclined
	}
	return nil
}

// leadingIDAttempt reads `{"id":"X","attempt":N,` at the start of a line,
// as json.Marshal writes an Outcome; ok is false for any other start.
func leadingIDAttempt(line []byte) (id []byte, attempt int, ok bool) {
	const pre, mid = `{"id":"`, `","attempt":`
	if !bytes.HasPrefix(line, []byte(pre)) {
		return nil, 0, false
	}
	rest := line[len(pre):]
	end := bytes.IndexByte(rest, '"')
	if end < 0 || bytes.IndexByte(rest[:end], '\\') >= 0 || !bytes.HasPrefix(rest[end:], []byte(mid)) {
		return nil, 0, false
	}
	id, rest = rest[:end], rest[end+len(mid):]
	comma := bytes.IndexByte(rest, ',')
	if comma < 1 || comma > 9 || rest[0] == '0' {
		return nil, 0, false
	}
	n, err := strconv.Atoi(string(rest[:comma]))
	if err != nil {
		return nil, 0, false
	}
	return id, n, true
}

// readPreviousReportHead reads a run's report.json without its per-request
// entries, which are skipped token by token so that a large report costs
// no memory; nil when there is none.
func readPreviousReportHead(path string) (*report.Report, error) {
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, &record.InputError{File: path, Msg: err.Error()}
	}
	defer f.Close()
	dec := json.NewDecoder(bufio.NewReaderSize(f, 256<<10))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil, schedule.ErrStreamDeclined
	}
	head := map[string]json.RawMessage{}
	for dec.More() {
		tok, err := dec.Token()
		key, ok := tok.(string)
		if err != nil || !ok {
			return nil, schedule.ErrStreamDeclined
		}
		if key == "requests" {
			if err := skipValue(dec); err != nil {
				return nil, schedule.ErrStreamDeclined
			}
			continue
		}
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return nil, schedule.ErrStreamDeclined
		}
		head[key] = raw
	}
	obj, err := json.Marshal(head)
	if err != nil {
		return nil, schedule.ErrStreamDeclined
	}
	var r report.Report
	if err := json.Unmarshal(obj, &r); err != nil {
		return nil, schedule.ErrStreamDeclined
	}
	return &r, nil
}

// skipValue reads one value token by token.
func skipValue(dec *json.Decoder) error {
	depth := 0
	for {
		tok, err := dec.Token()
		if err != nil {
			return err
		}
		switch tok {
		case json.Delim('{'), json.Delim('['):
			depth++
		case json.Delim('}'), json.Delim(']'):
			depth--
		}
		if depth == 0 {
			return nil
		}
	}
}
