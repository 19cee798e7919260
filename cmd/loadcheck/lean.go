package main

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptrace"
	"strconv"
	"sync"
	"sync/atomic"
	"time"
)

// The lean reference client: what a load generator written in a few dozen
// lines of plain Go does. A loop sleeps on the runtime's timer until each
// arrival and starts one goroutine per request; the goroutine sends the
// request and reads the event stream line by line with bufio. It uses no
// servebench package, so that servebench's own client can be measured
// against it in the same invocation.

// leanRequest is what the lean client measured of one request, in
// milliseconds from the run's start (0 when the instant never came).
type leanRequest struct {
	id          string
	scheduledMS float64
	sentMS      float64 // connection obtained (httptrace GotConn), as servebench stamps it
	firstMS     float64 // first data event with visible text
	events      int     // data events with visible text
	done        bool    // data: [DONE] arrived
	err         error
}

// leanClient sends completions requests to url at the given arrival
// offsets. Its requests carry X-Request-Id prefix+index.
type leanClient struct {
	url       string
	prefix    string
	maxTokens int
	http      *http.Client

	inFlight, peak atomic.Int64
}

// newLeanClient returns a lean client with its own connection pool.
func newLeanClient(url, prefix string, maxTokens int) *leanClient {
	tr := &http.Transport{
		DialContext:         (&net.Dialer{Timeout: 30 * time.Second, KeepAlive: 30 * time.Second}).DialContext,
		MaxIdleConnsPerHost: 4096,
		IdleConnTimeout:     90 * time.Second,
		DisableCompression:  true,
	}
	return &leanClient{url: url, prefix: prefix, maxTokens: maxTokens, http: &http.Client{Transport: tr}}
}

// run sends one request per arrival (offsets from the start) and returns
// when every request has ended, or when ctx ends.
func (c *leanClient) run(ctx context.Context, arrivals []time.Duration) []leanRequest {
	out := make([]leanRequest, len(arrivals))
	start := time.Now()
	var wg sync.WaitGroup
	for i, a := range arrivals {
		time.Sleep(time.Until(start.Add(a)))
		if ctx.Err() != nil {
			break
		}
		out[i] = leanRequest{id: c.prefix + strconv.Itoa(i), scheduledMS: ms(a)}
		wg.Add(1)
		go func(r *leanRequest) {
			defer wg.Done()
			c.do(ctx, start, r)
		}(&out[i])
	}
	wg.Wait()
	return out
}

// do sends one request and reads its stream.
func (c *leanClient) do(ctx context.Context, start time.Time, r *leanRequest) {
	c.peakAdd(1)
	defer c.inFlight.Add(-1)
	body := fmt.Sprintf(`{"model":"loadcheck","prompt":"load check prompt %s","max_tokens":%d,"stream":true}`, r.id, c.maxTokens)
	trace := &httptrace.ClientTrace{GotConn: func(httptrace.GotConnInfo) {
		if r.sentMS == 0 {
			r.sentMS = ms(time.Since(start))
		}
	}}
	req, err := http.NewRequestWithContext(httptrace.WithClientTrace(ctx, trace), http.MethodPost,
		c.url+"/v1/completions", bytes.NewReader([]byte(body)))
	if err != nil {
		r.err = err
		return
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "text/event-stream")
	req.Header.Set("X-Request-Id", r.id)
	resp, err := c.http.Do(req)
	if err != nil {
		r.err = err
		return
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		r.err = fmt.Errorf("HTTP %d", resp.StatusCode)
		_, _ = io.Copy(io.Discard, resp.Body)
		return
	}
	r.events, r.done, r.err = readLeanStream(bufio.NewReader(resp.Body), func() {
		r.firstMS = ms(time.Since(start))
	})
}

// peakAdd adds n requests in flight and raises the peak.
func (c *leanClient) peakAdd(n int64) {
	v := c.inFlight.Add(n)
	for {
		p := c.peak.Load()
		if v <= p || c.peak.CompareAndSwap(p, v) {
			return
		}
	}
}

// readLeanStream reads an event stream line by line until data: [DONE] or
// the end of the body. It calls first when the first data line with
// visible text (a non-empty "text" or "content" string) has been read, and
// returns the number of such lines and whether [DONE] came. Comments,
// other fields and data lines without text are skipped.
func readLeanStream(br *bufio.Reader, first func()) (events int, done bool, err error) {
	for {
		line, err := br.ReadSlice('\n')
		if err == bufio.ErrBufferFull {
			// A line longer than the buffer: keep reading it whole.
			head := append([]byte(nil), line...)
			rest, rerr := br.ReadBytes('\n')
			line, err = append(head, rest...), rerr
		}
		if len(line) > 0 {
			data, ok := bytes.CutPrefix(bytes.TrimRight(line, "\r\n"), []byte("data:"))
			if ok {
				data = bytes.TrimSpace(data)
				if string(data) == "[DONE]" {
					return events, true, nil
				}
				if hasVisibleText(data) {
					events++
					if events == 1 {
						first()
					}
				}
			}
		}
		if err == io.EOF {
			return events, false, nil
		}
		if err != nil {
			return events, false, err
		}
	}
}

// hasVisibleText says whether a chunk carries a non-empty "text" or
// "content" string: a cheap look at the bytes, not a JSON decode.
func hasVisibleText(data []byte) bool {
	for _, key := range [][]byte{[]byte(`"text":"`), []byte(`"content":"`)} {
		if i := bytes.Index(data, key); i >= 0 && i+len(key) < len(data) && data[i+len(key)] != '"' {
			return true
		}
	}
	return false
}

// ms is d in milliseconds.
func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
