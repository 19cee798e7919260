package record

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
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
	buf    bytes.Buffer
	enc    *json.Encoder
	good   int64 // bytes of complete records written
	err    error
	kept   []Outcome
	failed chan struct{}
	// KeepNone stops Write from keeping a copy (a BoundedMemory run).
	KeepNone bool
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
	w.buf.Reset()
	if err := w.enc.Encode(o); err != nil {
		w.fail(fmt.Errorf("outcomes: record of %s: %w", o.ID, err))
		return w.err
	}
	n, err := w.sink.Write(w.buf.Bytes())
	if err == nil && n < w.buf.Len() {
		err = io.ErrShortWrite
	}
	if err != nil {
		w.fail(fmt.Errorf("outcomes: writing the record of %s: %w", o.ID, err))
		w.cutTornRecord(n)
		return w.err
	}
	w.good += int64(n)
	if !w.KeepNone {
		w.kept = append(w.kept, *o)
	}
	return nil
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
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("read outcomes: %w", err)
	}
	defer f.Close()
	var out []Outcome
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	line := 0
	for sc.Scan() {
		line++
		b := sc.Bytes()
		if len(b) == 0 {
			continue
		}
		var o Outcome
		if err := json.Unmarshal(b, &o); err != nil {
			return nil, fmt.Errorf("%s:%d: %w", path, line, DescribeJSONError(err))
		}
		if !o.Status.Valid() {
			return nil, fmt.Errorf("%s:%d: status: unknown status %q", path, line, o.Status)
		}
		out = append(out, o)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return out, nil
}
