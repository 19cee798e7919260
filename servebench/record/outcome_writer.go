package record

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"iter"
	"os"
	"sync"

	"github.com/servebench/servebench/internal/safefile"
)

// Writer appends outcome records to a JSONL file, each in one write
// as it is written, so an interrupted run still leaves every finished
// request on disk. It is safe for concurrent use.
//
// A failed write (a full disk) is final: the file is cut back to the end of
// the last complete record, so no torn line is left where that is
// possible, Failed is closed, and every later Write returns the first
// error without writing.
type Writer struct {
	mu     sync.Mutex
	sink   io.Writer
	closer io.Closer
	line   []byte       // the record being written, by the fast path
	buf    bytes.Buffer // or by enc, for a record the fast path declines
	enc    *json.Encoder
	good   int64 // bytes of complete records written
	err    error
	kept   []Outcome
	failed chan struct{}
	// Keep makes Write keep a copy of each record, for Outcomes: warmup's
	// few records. A run keeps none; its records are read back from the
	// file.
	Keep         bool
	lastTerminal float64
}

// truncater is the part of *os.File that cuts a torn record off.
type truncater interface {
	Truncate(size int64) error
}

// CreateWriter creates (or truncates) the file at path. Its writes
// go through wrap when that is set (a test's stand-in for a full disk).
func CreateWriter(path string, wrap func(*os.File) io.Writer) (*Writer, error) {
	f, err := safefile.Create(path)
	if err != nil {
		return nil, fmt.Errorf("outcomes: %w", err)
	}
	var sink io.Writer = f
	if wrap != nil {
		sink = wrap(f)
	}
	return newWriter(sink, f), nil
}

// newWriter writes records to sink; closer, when not nil, is closed
// by Close.
func newWriter(sink io.Writer, closer io.Closer) *Writer {
	w := &Writer{sink: sink, closer: closer, failed: make(chan struct{})}
	w.enc = json.NewEncoder(&w.buf)
	return w
}

// Write appends one record. The first error is kept and returned by every
// later call and by Close.
func (w *Writer) Write(o *Outcome) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.err != nil {
		return w.err
	}
	line, ok := appendOutcomeLine(w.line[:0], o)
	if ok {
		w.line = line
	} else {
		w.buf.Reset()
		if err := w.enc.Encode(o); err != nil {
			w.fail(fmt.Errorf("outcomes: record of %s: %w", o.ID, err))
			return w.err
		}
		line = w.buf.Bytes()
	}
	n, err := w.sink.Write(line)
	if err == nil && n < len(line) {
		err = io.ErrShortWrite
	}
	if err != nil {
		w.fail(fmt.Errorf("outcomes: writing the record of %s: %w", o.ID, err))
		w.cutTornRecord(n)
		return w.err
	}
	w.good += int64(n)
	w.lastTerminal = max(w.lastTerminal, o.TerminalMS)
	if w.Keep {
		w.kept = append(w.kept, *o)
	}
	return nil
}

// Written is the length of outcomes.jsonl's complete records so far: a
// reader of the file while it grows reads this many bytes.
func (w *Writer) Written() int64 {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.good
}

// LastTerminalMS is the latest terminal time of the records written so
// far (0 before any): where a closed loop's window closes.
func (w *Writer) LastTerminalMS() float64 {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.lastTerminal
}

// fail keeps the first error and closes Failed.
func (w *Writer) fail(err error) {
	w.err = err
	close(w.failed)
}

// cutTornRecord removes the n bytes of a record that was only partly
// written, when the sink can be cut; otherwise the torn line stays and the
// scorer reports it.
func (w *Writer) cutTornRecord(n int) {
	if n == 0 {
		return
	}
	if t, ok := w.sink.(truncater); ok {
		if err := t.Truncate(w.good); err == nil {
			if s, ok := w.sink.(io.Seeker); ok {
				_, _ = s.Seek(w.good, io.SeekStart)
			}
		}
	}
}

// Failed is closed when a write has failed; Err then says why.
func (w *Writer) Failed() <-chan struct{} { return w.failed }

// Err returns the first write error, or nil.
func (w *Writer) Err() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.err
}

// Outcomes returns the records written so far, in write order.
func (w *Writer) Outcomes() []Outcome {
	w.mu.Lock()
	defer w.mu.Unlock()
	return append([]Outcome(nil), w.kept...)
}

// Close closes the file. It returns the first write error, if any.
func (w *Writer) Close() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.closer == nil {
		return w.err
	}
	err := w.closer.Close()
	w.closer = nil
	if w.err == nil && err != nil {
		w.err = fmt.Errorf("outcomes: %w", err)
	}
	return w.err
}

// ReadOutcomes reads an outcomes JSONL file. A truncated last line (a crash
// mid-write) is an error naming the line, like any other malformed line.
func ReadOutcomes(path string) ([]Outcome, error) {
	var out []Outcome
	for o, err := range EachOutcome(path) {
		if err != nil {
			return nil, err
		}
		out = append(out, *o)
	}
	return out, nil
}

// EachOutcome reads an outcome file one record at a time, in file order,
// holding one line at once. The record is reused for the next line. A
// line that does not decode, or has an unknown status, ends the sequence
// with an error naming the file and line.
func EachOutcome(path string) iter.Seq2[*Outcome, error] {
	return func(yield func(*Outcome, error) bool) {
		f, err := os.Open(path)
		if err != nil {
			yield(nil, fmt.Errorf("read outcomes: %w", err))
			return
		}
		defer f.Close()
		sc := bufio.NewScanner(f)
		sc.Buffer(make([]byte, 1<<20), 64<<20)
		var o Outcome
		for line := 1; sc.Scan(); line++ {
			b := sc.Bytes()
			if len(b) == 0 {
				continue
			}
			o = Outcome{}
			if err := json.Unmarshal(b, &o); err != nil {
				yield(nil, fmt.Errorf("%s:%d: %w", path, line, DescribeJSONError(err)))
				return
			}
			if !o.Status.Valid() {
				yield(nil, fmt.Errorf("%s:%d: status: unknown status %q", path, line, o.Status))
				return
			}
			if !yield(&o, nil) {
				return
			}
		}
		if err := sc.Err(); err != nil {
			yield(nil, fmt.Errorf("%s: %w", path, err))
		}
	}
}
