package servebench

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"sync"
)

// outcomeWriter appends outcome records to a JSONL file and flushes each one
// as it is written, so an interrupted run still leaves every finished
// request on disk. It is safe for concurrent use.
type outcomeWriter struct {
	mu   sync.Mutex
	f    *os.File
	buf  *bufio.Writer
	enc  *json.Encoder
	err  error
	kept []Outcome
	// keepNone stops Write from keeping a copy (a BoundedMemory run).
	keepNone bool
}

// createOutcomeWriter creates (or truncates) the file at path.
func createOutcomeWriter(path string) (*outcomeWriter, error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, fmt.Errorf("outcomes: %w", err)
	}
	buf := bufio.NewWriterSize(f, 64<<10)
	return &outcomeWriter{f: f, buf: buf, enc: json.NewEncoder(buf)}, nil
}

// Write appends one record and flushes it to the file. The first error is
// kept and returned by every later call and by Close.
func (w *outcomeWriter) Write(o *Outcome) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.err != nil {
		return w.err
	}
	if err := w.enc.Encode(o); err != nil {
		w.err = fmt.Errorf("outcomes: %s: %w", o.ID, err)
		return w.err
	}
	if err := w.buf.Flush(); err != nil {
		w.err = fmt.Errorf("outcomes: %w", err)
		return w.err
	}
	if !w.keepNone {
		w.kept = append(w.kept, *o)
	}
	return nil
}

// Outcomes returns the records written so far, in write order.
func (w *outcomeWriter) Outcomes() []Outcome {
	w.mu.Lock()
	defer w.mu.Unlock()
	return append([]Outcome(nil), w.kept...)
}

// Close flushes and closes the file.
func (w *outcomeWriter) Close() error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.f == nil {
		return w.err
	}
	err := w.buf.Flush()
	if cerr := w.f.Close(); err == nil {
		err = cerr
	}
	w.f = nil
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
			return nil, fmt.Errorf("%s:%d: %w", path, line, describeJSONError(err))
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
