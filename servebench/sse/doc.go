// Package sse reads a Server-Sent Events stream (the text/event-stream
// format of the HTML Living Standard, section 9.2) from an io.Reader.
//
// The Reader is written for benchmark clients: it is correct whatever the
// boundaries of the underlying reads (a CRLF pair split between two reads
// included), it accepts LF, CR and CRLF line ends, strips one leading byte
// order mark, joins multi-line data fields with "\n", and reports comment
// lines (": keepalive") as items of their own so that a caller can see that
// the server is alive, while never mixing them into event data.
//
// The hot path does not allocate: the returned Event's slices point into
// buffers that the Reader reuses, and are valid only until the next call to
// Next.
package sse
