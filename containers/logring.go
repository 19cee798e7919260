package containers

import (
	"bytes"
	"fmt"
	"io"
	"sync"

	"github.com/testcontainers/testcontainers-go"
)

// DefaultLogBufferBytes is the default bound of a LogRing.
const DefaultLogBufferBytes = 256 << 10

// LogRing is a testcontainers LogConsumer that keeps the most recent output
// of a container, bounded in bytes: older lines are dropped as new ones
// arrive. It is meant for failure reports, where the end of an engine's log
// (an out-of-memory error, a bad flag) is what explains a failed start. It
// is safe for concurrent use.
type LogRing struct {
	mu      sync.Mutex
	max     int
	buf     []byte
	dropped int64
}

// NewLogRing returns a LogRing that keeps at most maxBytes bytes;
// maxBytes <= 0 means DefaultLogBufferBytes.
func NewLogRing(maxBytes int) *LogRing {
	if maxBytes <= 0 {
		maxBytes = DefaultLogBufferBytes
	}
	return &LogRing{max: maxBytes}
}

// Accept implements testcontainers.LogConsumer.
func (r *LogRing) Accept(l testcontainers.Log) {
	_, _ = r.Write(l.Content)
}

// Write appends p, dropping the oldest output beyond the bound. When it
// drops, it drops whole lines where it can, so the tail starts at a line.
func (r *LogRing) Write(p []byte) (int, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.buf = append(r.buf, p...)
	if over := len(r.buf) - r.max; over > 0 {
		cut := over
		if nl := bytes.IndexByte(r.buf[over:], '\n'); nl >= 0 && over+nl+1 < len(r.buf) {
			cut = over + nl + 1
		}
		r.dropped += int64(cut)
		r.buf = append(r.buf[:0], r.buf[cut:]...)
	}
	return len(p), nil
}

// Bytes returns a copy of the output kept.
func (r *LogRing) Bytes() []byte {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]byte(nil), r.buf...)
}

// Dropped is the number of bytes dropped to stay within the bound.
func (r *LogRing) Dropped() int64 {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.dropped
}

// String returns the output kept, preceded by a line saying how much
// earlier output was dropped, if any.
func (r *LogRing) String() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.dropped == 0 {
		return string(r.buf)
	}
	return fmt.Sprintf("[%d earlier bytes dropped]\n%s", r.dropped, r.buf)
}

// WriteTo writes the output kept to w.
func (r *LogRing) WriteTo(w io.Writer) (int64, error) {
	n, err := w.Write(r.Bytes())
	return int64(n), err
}
