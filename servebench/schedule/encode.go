package schedule

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"hash"
	"io"
	"os"

	"github.com/servebench/servebench/internal/safefile"
)

// Encoder writes a schedule's JSON form one entry at a time: the
// bytes are exactly those of json.MarshalIndent(s, "", "  ") and a final
// newline, so a schedule of any length is written and hashed without
// being held whole, and its hash does not depend on how it was written.
type Encoder struct {
	w       io.Writer
	entries int
	raw     bytes.Buffer
	indent  bytes.Buffer
	enc     *json.Encoder
}

// entriesTail is how MarshalIndent ends a schedule whose entries are
// empty: the last field, then the object's close.
const entriesTail = "[]\n}"

// NewEncoder writes head's fields up to the opening of its
// entries; head's own entries are not written.
func NewEncoder(w io.Writer, head *Schedule) (*Encoder, error) {
	h := *head
	h.Entries = []Entry{}
	data, err := json.MarshalIndent(&h, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("write schedule: %w", err)
	}
	if !bytes.HasSuffix(data, []byte(entriesTail)) {
		return nil, errors.New("write schedule: entries are not the schedule's last field")
	}
	e := &Encoder{w: w}
	e.enc = json.NewEncoder(&e.raw)
	if _, err := w.Write(data[:len(data)-len(entriesTail)+1]); err != nil {
		return nil, fmt.Errorf("write schedule: %w", err)
	}
	return e, nil
}

// Entry writes the next entry.
func (e *Encoder) Entry(x *Entry) error {
	e.raw.Reset()
	if err := e.enc.Encode(x); err != nil {
		return fmt.Errorf("write schedule: entry %s: %w", x.ID, err)
	}
	e.indent.Reset()
	if e.entries == 0 {
		e.indent.WriteString("\n    ")
	} else {
		e.indent.WriteString(",\n    ")
	}
	if err := json.Indent(&e.indent, bytes.TrimSuffix(e.raw.Bytes(), []byte("\n")), "    ", "  "); err != nil {
		return fmt.Errorf("write schedule: entry %s: %w", x.ID, err)
	}
	e.entries++
	if _, err := e.w.Write(e.indent.Bytes()); err != nil {
		return fmt.Errorf("write schedule: %w", err)
	}
	return nil
}

// Close ends the entries and the schedule.
func (e *Encoder) Close() error {
	end := "]\n}\n"
	if e.entries > 0 {
		end = "\n  ]\n}\n"
	}
	if _, err := io.WriteString(e.w, end); err != nil {
		return fmt.Errorf("write schedule: %w", err)
	}
	return nil
}

// encodeSchedule writes s's JSON form to w.
func encodeSchedule(w io.Writer, s *Schedule) error {
	enc, err := NewEncoder(w, s)
	if err != nil {
		return err
	}
	for i := range s.Entries {
		if err := enc.Entry(&s.Entries[i]); err != nil {
			return err
		}
	}
	return enc.Close()
}

// File is schedule.json being written: through a buffer, and
// hashed as it goes.
type File struct {
	f   *os.File
	buf *bufio.Writer
	sum hash.Hash
}

// CreateFile creates (or truncates) the file at path.
func CreateFile(path string) (*File, error) {
	f, err := safefile.Create(path)
	if err != nil {
		return nil, fmt.Errorf("write schedule: %w", err)
	}
	return &File{f: f, buf: bufio.NewWriterSize(f, 256<<10), sum: sha256.New()}, nil
}

// Write buffers p and adds it to the hash.
func (s *File) Write(p []byte) (int, error) {
	s.sum.Write(p)
	return s.buf.Write(p)
}

// Close flushes and closes the file and returns the SHA-256 of its bytes.
func (s *File) Close() (string, error) {
	err := s.buf.Flush()
	if cerr := s.f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return "", fmt.Errorf("write schedule: %w", err)
	}
	return hex.EncodeToString(s.sum.Sum(nil)), nil
}

// Abort closes the file after a failed write.
func (s *File) Abort() { _ = s.f.Close() }
