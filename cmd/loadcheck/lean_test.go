package main

import (
	"bufio"
	"context"
	"io"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// TestReadLeanStreamCountsTextEvents reads a stream with a comment, a
// role-only chunk, an empty text, an event type, a CRLF line, a line
// longer than the reader's buffer and data after [DONE]: only the three
// chunks with text count, first is called once, on the first of them.
func TestReadLeanStreamCountsTextEvents(t *testing.T) {
	long := `data: {"choices":[{"text":"` + strings.Repeat("x", 5000) + `"}]}` + "\n\n"
	stream := ": keepalive\n\n" +
		`data: {"choices":[{"delta":{"role":"assistant","content":""}}]}` + "\n\n" +
		`data: {"choices":[{"text":""}]}` + "\n\n" +
		"event: message\n" + `data: {"choices":[{"text":" a"}]}` + "\n\n" +
		`data:{"choices":[{"delta":{"content":"b"}}]}` + "\r\n\r\n" +
		long +
		"data: [DONE]\n\n" +
		`data: {"choices":[{"text":"after"}]}` + "\n\n"
	src := &countingReader{r: strings.NewReader(stream)}
	br := bufio.NewReaderSize(src, 4096)
	calls, consumed := 0, 0
	events, done, err := readLeanStream(br, func() {
		calls++
		consumed = src.n - br.Buffered()
	})
	if err != nil || !done || events != 3 || calls != 1 {
		t.Fatalf("events %d, done %t, err %v, first called %d times; want 3, true, nil, 1", events, done, err, calls)
	}
	// first was called right after the " a" line (its newline included)
	// was read, and no further.
	if want := strings.Index(stream, `" a"}]}`) + len(`" a"}]}`) + 1; consumed != want {
		t.Errorf("first was called after %d bytes were read, want %d (the end of the first text line)", consumed, want)
	}
}

// countingReader counts the bytes read through it.
type countingReader struct {
	r io.Reader
	n int
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += n
	return n, err
}

// TestReadLeanStreamWithoutDone reports a stream cut before [DONE].
func TestReadLeanStreamWithoutDone(t *testing.T) {
	br := bufio.NewReader(strings.NewReader(`data: {"choices":[{"text":"a"}]}` + "\n\n" + `data: {"choices":[{"text":"b"`))
	events, done, err := readLeanStream(br, func() {})
	if err != nil || done || events != 2 {
		t.Fatalf("events %d, done %t, err %v; want 2 (the cut line has text), false, nil", events, done, err)
	}
}

// TestLeanClientAgainstTheStreamServer sends ten constant arrivals (50
// req/s over 200 ms) to the stream server on loopback: every request ends
// with [DONE] after three text events, and every one is joined to the
// server's own first-token time, which the server measured at no less
// than its 20 ms first-token delay.
func TestLeanClientAgainstTheStreamServer(t *testing.T) {
	srv := httptest.NewServer(newStreamServer(3, 20*time.Millisecond, 5*time.Millisecond))
	defer srv.Close()
	arrivals, err := arrivalOffsets("constant", 50, 200*time.Millisecond, 1)
	if err != nil {
		t.Fatal(err)
	}
	if len(arrivals) != 10 || arrivals[1] != 20*time.Millisecond {
		t.Fatalf("arrivals %v: want 10, 20 ms apart", arrivals)
	}
	c := newLeanClient(srv.URL, "t/", 3)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	reqs := c.run(ctx, arrivals)
	server, err := takeServerTTFT(srv.URL, "t/")
	if err != nil {
		t.Fatal(err)
	}
	if len(server) != 10 {
		t.Fatalf("the server recorded %d first-token times, want 10", len(server))
	}
	timings := make([]requestTiming, len(reqs))
	for i, q := range reqs {
		if q.err != nil || !q.done || q.events != 3 {
			t.Fatalf("request %d: err %v, done %t, events %d", i, q.err, q.done, q.events)
		}
		if q.id != "t/"+string(rune('0'+i)) || q.scheduledMS != float64(20*i) {
			t.Errorf("request %d: id %q scheduled %g ms", i, q.id, q.scheduledMS)
		}
		if !(q.scheduledMS <= q.sentMS && q.sentMS < q.firstMS) {
			t.Errorf("request %d: scheduled %g, sent %g, first %g: out of order", i, q.scheduledMS, q.sentMS, q.firstMS)
		}
		if server[q.id] < 20 {
			t.Errorf("request %d: server TTFT %g ms, below the 20 ms delay", i, server[q.id])
		}
		timings[i] = requestTiming{id: q.id, scheduled: q.scheduledMS, sent: q.sentMS, first: q.firstMS,
			hasSent: true, hasFirst: true, succeeded: true}
	}
	var r phaseResult
	r.fill(timings, server)
	if r.Scheduled != 10 || r.Succeeded != 10 || r.Joined != 10 {
		t.Errorf("scheduled %d, succeeded %d, joined %d; want 10 each", r.Scheduled, r.Succeeded, r.Joined)
	}
	if again, _ := takeServerTTFT(srv.URL, "t/"); len(again) != 0 {
		t.Errorf("the server still holds %d times after they were taken", len(again))
	}
}

// TestHasVisibleText looks at chunks with and without text.
func TestHasVisibleText(t *testing.T) {
	for data, want := range map[string]bool{
		`{"choices":[{"text":" tok"}]}`:                  true,
		`{"choices":[{"text":""}]}`:                      false,
		`{"choices":[{"delta":{"content":"x"}}]}`:        true,
		`{"choices":[{"delta":{"role":"assistant"}}]}`:   false,
		`{"choices":[],"usage":{"completion_tokens":3}}`: false,
		`{"choices":[{"text":"`:                          false,
	} {
		if got := hasVisibleText([]byte(data)); got != want {
			t.Errorf("hasVisibleText(%s) = %t, want %t", data, got, want)
		}
	}
}
