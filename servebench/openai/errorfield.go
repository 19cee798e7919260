package openai

import (
	"bytes"
	"time"
)

// errorFieldPrefix starts a stream line whose field name is "error".
const errorFieldPrefix = "error:"

// errorField watches the raw bytes of an event stream for a line whose
// field name is "error".
//
// The event-stream standard defines no such field, so the sse reader
// ignores the line, as it must. But llama.cpp's server, until its streaming
// was reworked in October 2025 (ggml-org/llama.cpp pull request 16486),
// reported a failure inside a stream exactly that way: the line
// "error: {"code":...,"message":...,"type":...}", a blank line, and then
// "data: [DONE]". Read as the standard says, such a stream ends cleanly and
// the request would be recorded as a success (or as empty_output) with the
// server's message lost. The exchange therefore consults this watcher when
// the stream ends.
//
// The watcher only looks at the first bytes of each line, so the cost on a
// normal stream is one comparison per line. Data lines cannot hide an
// "error:" line: a line break always ends a field, and JSON text escapes
// its line breaks.
type errorField struct {
	// matched is how much of errorFieldPrefix the current line has matched
	// from its start; -1 once the line cannot be an error line.
	matched int
	// capturing is true while the value of an error line is being read.
	capturing bool
	// seen is true once a whole error line has arrived.
	seen bool
	// at is when the first error line was complete.
	at time.Time
	// value is the first error line's value, bounded by maxErrorBody.
	value []byte
}

// scan examines the next bytes of the stream, which arrived at at.
func (e *errorField) scan(p []byte, at time.Time) {
	for len(p) > 0 {
		if e.capturing {
			end := lineBreak(p)
			if end < 0 {
				e.keep(p)
				return
			}
			e.keep(p[:end])
			e.capturing, e.seen, e.at = false, true, at
			p, e.matched = p[end+1:], 0
			continue
		}
		if e.matched >= 0 {
			n := min(len(p), len(errorFieldPrefix)-e.matched)
			if string(p[:n]) == errorFieldPrefix[e.matched:e.matched+n] {
				e.matched += n
				p = p[n:]
				if e.matched == len(errorFieldPrefix) {
					e.matched = -1
					e.capturing = !e.seen // only the first error line is kept
				}
				continue
			}
			e.matched = -1
		}
		end := lineBreak(p)
		if end < 0 {
			return
		}
		p, e.matched = p[end+1:], 0
	}
}

// keep appends part of the error line's value, within bounds.
func (e *errorField) keep(p []byte) {
	if room := maxErrorBody - len(e.value); room > 0 {
		e.value = append(e.value, p[:min(len(p), room)]...)
	}
}

// message returns the server's message from the error line's value.
func (e *errorField) message() string {
	return serverMessage(bytes.TrimSpace(e.value))
}

// lineBreak returns the index of the first CR or LF in p, or -1. A CR LF
// pair is two breaks here, the second ending an empty line, which is
// harmless for a watcher of line starts.
func lineBreak(p []byte) int {
	lf := bytes.IndexByte(p, '\n')
	head := p
	if lf >= 0 {
		head = p[:lf]
	}
	if cr := bytes.IndexByte(head, '\r'); cr >= 0 {
		return cr
	}
	return lf
}
