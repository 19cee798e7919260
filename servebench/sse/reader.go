package sse

import (
	"bytes"
	"errors"
	"io"
	"math"
	"time"
)

// Kind says what Next returned.
type Kind uint8

// The kinds of item a Reader returns.
const (
	// KindEvent is a dispatched event: one or more field lines closed by a
	// blank line, with at least one data field.
	KindEvent Kind = 1 + iota
	// KindComment is a comment line (one that starts with a colon). It is
	// never part of an event; servers send it as a keepalive.
	KindComment
)

// String names the kind.
func (k Kind) String() string {
	switch k {
	case KindEvent:
		return "event"
	case KindComment:
		return "comment"
	}
	return "unknown"
}

// Event is one item of the stream. Its slices point into buffers the Reader
// reuses: they are valid only until the next call to Next or Reset. Copy
// what must outlive that.
type Event struct {
	// Kind is KindEvent or KindComment.
	Kind Kind
	// Type is the value of the last "event" field of the event; empty means
	// the default type, "message". Always empty for a comment.
	Type []byte
	// Data is, for an event, the values of its "data" fields joined with
	// "\n" (possibly empty: a "data:" line with no value is an empty data
	// field). For a comment it is the text after the colon, unchanged.
	Data []byte
	// ID is the stream's last event ID when the event was dispatched (the
	// "id" field persists across events, as the standard says). Always
	// empty for a comment.
	ID []byte
}

// DefaultMaxEventSize bounds a line and the data of one event when
// Reader.MaxEventSize is zero.
const DefaultMaxEventSize = 8 << 20

// ErrEventTooLarge is returned when a line, or the data of one event,
// exceeds the Reader's maximum size. The Reader cannot continue after it.
var ErrEventTooLarge = errors.New("sse: line or event data exceeds the maximum size")

// errInvalidRead reports a source whose Read returned an impossible count.
var errInvalidRead = errors.New("sse: source returned an invalid read count")

// defaultBufferSize is the initial size of the read buffer.
const defaultBufferSize = 4096

// maxRetainedBuffer is the largest buffer Reset keeps for reuse.
const maxRetainedBuffer = 64 << 10

// bom is the UTF-8 byte order mark, stripped once at the start of a stream.
var bom = []byte{0xEF, 0xBB, 0xBF}

// Reader reads items from a text/event-stream. Make one with NewReader; it
// is not safe for concurrent use.
type Reader struct {
	// MaxEventSize bounds the length of one line and the data of one event,
	// in bytes; zero means DefaultMaxEventSize. Set it before the first Next.
	MaxEventSize int

	src        io.Reader
	buf        []byte
	start, end int   // unread bytes are buf[start:end]
	err        error // sticky error from src, returned once buffered lines are used
	fatal      error // sticky error of the Reader itself, returned at once
	bomChecked bool  // the start of the stream has been examined for a BOM
	skipLF     bool  // the last line ended with CR: drop an LF that follows

	data     []byte // data buffer of the event being built, each line + "\n"
	hasData  bool   // at least one data field since the last dispatch
	typ      []byte // event type buffer
	lastID   []byte // last event ID buffer
	pending  bool   // a field line was seen since the last blank line
	retry    time.Duration
	hasRetry bool
}

// NewReader returns a Reader that reads from src with a 4 KiB initial
// buffer, grown as long lines require.
func NewReader(src io.Reader) *Reader {
	return NewReaderSize(src, defaultBufferSize)
}

// NewReaderSize returns a Reader whose initial buffer holds size bytes
// (at least 16).
func NewReaderSize(src io.Reader, size int) *Reader {
	if size < 16 {
		size = 16
	}
	return &Reader{src: src, buf: make([]byte, size)}
}

// Reset makes the Reader read a new stream from src, keeping its buffers
// (unless they grew past 64 KiB) so that a pooled Reader does not allocate.
func (r *Reader) Reset(src io.Reader) {
	buf, data := r.buf, r.data[:0]
	if cap(buf) > maxRetainedBuffer {
		buf = make([]byte, defaultBufferSize)
	}
	if cap(data) > maxRetainedBuffer {
		data = nil
	}
	*r = Reader{
		MaxEventSize: r.MaxEventSize,
		src:          src,
		buf:          buf,
		data:         data,
		typ:          r.typ[:0],
		lastID:       r.lastID[:0],
	}
}

// LastEventID returns the stream's last event ID buffer; it is valid until
// the next call to Next or Reset.
func (r *Reader) LastEventID() []byte { return r.lastID }

// Retry returns the last reconnection time the stream set with a "retry"
// field, and whether it set one.
func (r *Reader) Retry() (time.Duration, bool) { return r.retry, r.hasRetry }

// Next returns the next event or comment.
//
// At the end of the stream it returns io.EOF when the stream stopped at an
// item boundary, and io.ErrUnexpectedEOF when it stopped inside a line or
// inside an event that no blank line closed (that event is discarded, as
// the standard says). Other errors come from the underlying reader, or are
// ErrEventTooLarge. Once Next has returned an error it returns it again.
func (r *Reader) Next() (Event, error) {
	if r.fatal != nil {
		return Event{}, r.fatal
	}
	for {
		line, err := r.readLine()
		if err != nil {
			return Event{}, err
		}
		if len(line) == 0 {
			r.pending = false
			if !r.hasData {
				r.typ = r.typ[:0]
				continue
			}
			ev := Event{Kind: KindEvent, Type: r.typ, Data: r.data[:len(r.data)-1], ID: r.lastID}
			r.data, r.typ, r.hasData = r.data[:0], r.typ[:0], false
			return ev, nil
		}
		if line[0] == ':' {
			return Event{Kind: KindComment, Data: line[1:]}, nil
		}
		r.pending = true
		if err := r.field(line); err != nil {
			r.fatal = err
			return Event{}, err
		}
	}
}

// field applies one field line (not blank, not a comment) to the event
// being built.
func (r *Reader) field(line []byte) error {
	name, value := line, line[len(line):]
	if i := bytes.IndexByte(line, ':'); i >= 0 {
		name, value = line[:i], line[i+1:]
		if len(value) > 0 && value[0] == ' ' {
			value = value[1:]
		}
	}
	switch string(name) {
	case "data":
		if len(r.data)+len(value) > r.maxSize() {
			return ErrEventTooLarge
		}
		r.data = append(r.data, value...)
		r.data = append(r.data, '\n')
		r.hasData = true
	case "event":
		r.typ = append(r.typ[:0], value...)
	case "id":
		if bytes.IndexByte(value, 0) < 0 {
			r.lastID = append(r.lastID[:0], value...)
		}
	case "retry":
		if ms, ok := parseRetry(value); ok {
			r.retry, r.hasRetry = time.Duration(ms)*time.Millisecond, true
		}
	}
	return nil
}

// parseRetry reads a retry value: ASCII digits only, in milliseconds, small
// enough to be a time.Duration.
func parseRetry(v []byte) (int64, bool) {
	if len(v) == 0 {
		return 0, false
	}
	const limit = math.MaxInt64 / int64(time.Millisecond)
	var ms int64
	for _, c := range v {
		if c < '0' || c > '9' {
			return 0, false
		}
		ms = ms*10 + int64(c-'0')
		if ms > limit {
			return 0, false
		}
	}
	return ms, true
}

// maxSize is the effective bound on a line and on one event's data.
func (r *Reader) maxSize() int {
	if r.MaxEventSize > 0 {
		return r.MaxEventSize
	}
	return DefaultMaxEventSize
}

// readLine returns the next complete line without its terminator. The
// slice points into r.buf and is valid until the next fill.
func (r *Reader) readLine() ([]byte, error) {
	for {
		if !r.bomChecked {
			if r.end-r.start < len(bom) && r.err == nil {
				r.fill()
				continue
			}
			r.bomChecked = true
			if bytes.HasPrefix(r.buf[r.start:r.end], bom) {
				r.start += len(bom)
			}
		}
		b := r.buf[r.start:r.end]
		if r.skipLF && len(b) > 0 {
			r.skipLF = false
			if b[0] == '\n' {
				r.start++
				b = b[1:]
			}
		}
		if i := lineEnd(b); i >= 0 {
			r.start += i + 1
			if b[i] == '\r' {
				if i+1 == len(b) {
					r.skipLF = true
				} else if b[i+1] == '\n' {
					r.start++
				}
			}
			return b[:i], nil
		}
		if r.err != nil {
			if r.err == io.EOF && (len(b) > 0 || r.pending) {
				return nil, io.ErrUnexpectedEOF
			}
			return nil, r.err
		}
		if len(b) > r.maxSize() {
			r.fatal = ErrEventTooLarge
			return nil, r.fatal
		}
		r.fill()
	}
}

// lineEnd returns the index of the first CR or LF in b, or -1.
func lineEnd(b []byte) int {
	lf := bytes.IndexByte(b, '\n')
	head := b
	if lf >= 0 {
		head = b[:lf]
	}
	if cr := bytes.IndexByte(head, '\r'); cr >= 0 {
		return cr
	}
	return lf
}

// fill compacts the buffer, grows it when a partial line fills it, and
// reads once from the source (retrying reads that return nothing).
func (r *Reader) fill() {
	if r.start > 0 {
		r.end = copy(r.buf, r.buf[r.start:r.end])
		r.start = 0
	}
	if r.end == len(r.buf) {
		size := 2 * len(r.buf)
		if limit := r.maxSize() + 2; size > limit {
			size = max(limit, len(r.buf)+1)
		}
		grown := make([]byte, size)
		copy(grown, r.buf[:r.end])
		r.buf = grown
	}
	for range 100 {
		n, err := r.src.Read(r.buf[r.end:])
		if n < 0 || n > len(r.buf)-r.end {
			r.err = errInvalidRead
			return
		}
		r.end += n
		if err != nil {
			r.err = err
			return
		}
		if n > 0 {
			return
		}
	}
	r.err = io.ErrNoProgress
}
