package openai_test

import (
	"context"
	"encoding/json"
	"net"
	"net/http"
	"testing"
	"time"

	"github.com/servebench/servebench/internal/ssetest"
	"github.com/servebench/servebench/servebench/record"
)

func TestClientStreamMissingDone(t *testing.T) {
	srv := ssetest.New(t, func(w *ssetest.Writer) {
		w.StreamHeader()
		w.Content(ssetest.ChatContent("partial"))
		w.Sleep(100 * time.Millisecond)
		w.Mark()
		// The handler returns: the body ends cleanly, without [DONE].
	})
	out := sendRow(t, srv, chatClient(), chatRow())
	wantStatus(t, out, record.StatusStreamError)
	wantContains(t, "error", out.Error, "without data: [DONE]")
	if len(out.ContentMS) != 1 {
		t.Errorf("content times %v: what arrived is still recorded", out.ContentMS)
	}
	within(t, "terminal at the end of the body", out.TerminalMS, srv.MarkTimes()[0])
	wantInt(t, "HTTP status", out.HTTPStatus, 200)
}

func TestClientStreamErrorEvents(t *testing.T) {
	cases := []struct {
		name, raw, want string
	}{
		{"vllm error object", "data: " + ssetest.MustJSON(map[string]any{"error": map[string]any{"message": "engine overloaded", "type": "InternalServerError", "code": 500}}) + "\n\n", "engine overloaded"},
		{"event: error with a string", "event: error\ndata: " + ssetest.MustJSON(map[string]any{"error": "boom"}) + "\n\n", "boom"},
		{"tgi error with type", "data: " + ssetest.MustJSON(map[string]any{"error": "Request failed during generation", "error_type": "generation"}) + "\n\n", "Request failed during generation"},
		{"event: error with plain text", "event: error\ndata: worker died\n\n", "worker died"},
		{"older vllm object form", "data: " + ssetest.MustJSON(map[string]any{"object": "error", "message": "bad state", "code": 500}) + "\n\n", "bad state"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			srv := ssetest.New(t, func(w *ssetest.Writer) {
				w.StreamHeader()
				w.Content(ssetest.ChatContent("a"))
				w.Sleep(80 * time.Millisecond)
				w.Mark()
				w.Raw(c.raw)
				w.Done()
			})
			out := sendRow(t, srv, chatClient(), chatRow())
			wantStatus(t, out, record.StatusStreamError)
			wantContains(t, "error", out.Error, c.want)
			within(t, "terminal at the error event", out.TerminalMS, srv.MarkTimes()[0])
		})
	}
}

func TestClientStreamInvalidJSONEvent(t *testing.T) {
	srv := ssetest.New(t, func(w *ssetest.Writer) {
		w.StreamHeader()
		w.Content(ssetest.ChatContent("a"))
		w.Event(`{"choices": [{"index": 0, "delta": {"content": "b"`)
		w.Done()
	})
	out := sendRow(t, srv, chatClient(), chatRow())
	wantStatus(t, out, record.StatusStreamError)
	wantContains(t, "error", out.Error, "event 2 is not a readable chunk")
}

func TestClientHTTPErrors(t *testing.T) {
	cases := []struct {
		name   string
		code   int
		body   string
		status record.Status
		want   string
	}{
		{"429", 429, `{"error":{"message":"Too many requests, retry later","type":"rate_limit"}}`, record.StatusRejected, "HTTP 429: Too many requests, retry later"},
		{"503", 503, `{"error":"server is at capacity"}`, record.StatusRejected, "HTTP 503: server is at capacity"},
		{"500 with JSON error", 500, `{"error":{"message":"CUDA out of memory","type":"InternalServerError","code":500}}`, record.StatusHTTPError, "HTTP 500: CUDA out of memory"},
		{"400 with message", 400, `{"object":"error","message":"max_tokens is too large","type":"BadRequestError","code":400}`, record.StatusHTTPError, "HTTP 400: max_tokens is too large"},
		{"404 plain text", 404, "no such route\n", record.StatusHTTPError, "HTTP 404: no such route"},
		{"502 empty body", 502, "", record.StatusHTTPError, "HTTP 502: Bad Gateway"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			srv := ssetest.New(t, func(w *ssetest.Writer) {
				w.Sleep(50 * time.Millisecond)
				w.RW.Header().Set("Content-Type", "application/json")
				w.RW.WriteHeader(c.code)
				_, _ = w.RW.Write([]byte(c.body))
			})
			out := sendRow(t, srv, chatClient(), chatRow())
			wantStatus(t, out, c.status)
			if out.Error != c.want {
				t.Errorf("error %q, want %q", out.Error, c.want)
			}
			wantInt(t, "HTTP status", out.HTTPStatus, c.code)
			within(t, "terminal after the server's delay", out.TerminalMS-*out.SentMS, 50)
			if out.ContentMS != nil || out.OutputTokens != nil {
				t.Errorf("content %v tokens %v on an error", out.ContentMS, show(out.OutputTokens))
			}
		})
	}
}

func TestClientStreamAnsweredWithJSON(t *testing.T) {
	srv := ssetest.New(t, func(w *ssetest.Writer) {
		w.RW.Header().Set("Content-Type", "application/json")
		_, _ = w.RW.Write([]byte(`{"error":{"message":"streaming is disabled"}}`))
	})
	out := sendRow(t, srv, chatClient(), chatRow())
	wantStatus(t, out, record.StatusStreamError)
	wantContains(t, "error", out.Error, "streaming is disabled")
}

func TestClientConnectionResetMidStream(t *testing.T) {
	srv := ssetest.New(t, func(w *ssetest.Writer) {
		w.StreamHeader()
		w.Content(ssetest.ChatContent("a"))
		w.Sleep(100 * time.Millisecond)
		w.Mark()
		conn, buf, err := http.NewResponseController(w.RW).Hijack()
		if err != nil {
			panic(err)
		}
		_ = buf.Flush()
		// Half an event, then a reset (RST, not a clean close).
		_, _ = conn.Write([]byte("1a\r\ndata: {\"choices\":[{\"ind\r\n"))
		if tcp, ok := conn.(*net.TCPConn); ok {
			_ = tcp.SetLinger(0)
		}
		_ = conn.Close()
	})
	out := sendRow(t, srv, chatClient(), chatRow())
	wantStatus(t, out, record.StatusStreamError)
	wantContains(t, "error", out.Error, "connection failed")
	wantInt(t, "HTTP status", out.HTTPStatus, 200)
	if len(out.ContentMS) != 1 {
		t.Errorf("content %v, want the one event before the reset", out.ContentMS)
	}
	within(t, "terminal at the reset", out.TerminalMS, srv.MarkTimes()[0])
}

func TestClientConnectionRefused(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	c := chatClient()
	c.BaseURL = "http://" + addr
	start := time.Now()
	out := &record.Outcome{ID: "r1", Attempt: 1}
	c.Do(context.Background(), start, chatRow(), "run/r1/1", out)
	checkInvariants(t, out)
	wantStatus(t, out, record.StatusStreamError)
	wantContains(t, "error", out.Error, "connection refused")
	wantNil(t, "sent (no connection was obtained)", out.SentMS)
	wantNil(t, "HTTP status", out.HTTPStatus)
}

func TestClientIdleTimeout(t *testing.T) {
	srv := ssetest.New(t, func(w *ssetest.Writer) {
		w.StreamHeader()
		w.Content(ssetest.ChatContent("a"))
		w.Sleep(40 * time.Millisecond)
		w.Content(ssetest.ChatContent("b"))
		w.Sleep(2 * time.Second) // the stall
		w.Content(ssetest.ChatContent("never seen"))
		w.Done()
	})
	c := chatClient()
	c.IdleTimeout = 200 * time.Millisecond
	out := sendRow(t, srv, c, chatRow())
	wantStatus(t, out, record.StatusTimeout)
	if *out.Timeout != record.TimeoutIdle {
		t.Errorf("timeout %s, want idle", *out.Timeout)
	}
	if len(out.ContentMS) != 2 {
		t.Errorf("content %v, want 2 events", out.ContentMS)
	}
	wantDue(t, out, *out.LastContentMS+200)
	wantContains(t, "error", out.Error, "idle timeout")
}

func TestClientKeepalivesHoldOffTheIdleTimeout(t *testing.T) {
	// A 400 ms gap between events, filled with a comment every 50 ms: no
	// gap between lines reaches the 200 ms idle timeout, and the comments
	// do not count as content.
	srv := ssetest.New(t, func(w *ssetest.Writer) {
		w.StreamHeader()
		w.Content(ssetest.ChatContent("a"))
		for range 8 {
			w.Sleep(50 * time.Millisecond)
			w.Raw(": keepalive\n\n")
		}
		w.Content(ssetest.ChatContent("b"))
		w.Done()
	})
	c := chatClient()
	c.IdleTimeout = 200 * time.Millisecond
	out := sendRow(t, srv, c, chatRow())
	wantStatus(t, out, record.StatusSuccess)
	server := srv.ContentTimes()
	within(t, "second content vs server", out.ContentMS[1], server[1])
	if len(out.ContentMS) != 2 {
		t.Errorf("content %v, want 2 events", out.ContentMS)
	}
}

func TestClientFirstTokenTimeoutHeadersNeverCome(t *testing.T) {
	srv := ssetest.New(t, func(w *ssetest.Writer) {
		w.Sleep(3 * time.Second) // until the client goes away
	})
	c := chatClient()
	c.FirstTokenTimeout = 150 * time.Millisecond
	c.IdleTimeout = 50 * time.Millisecond // no line ever came: idle does not apply
	out := sendRow(t, srv, c, chatRow())
	wantStatus(t, out, record.StatusTimeout)
	if *out.Timeout != record.TimeoutFirstToken {
		t.Errorf("timeout %s, want first_token", *out.Timeout)
	}
	wantDue(t, out, *out.SentMS+150)
	wantNil(t, "HTTP status", out.HTTPStatus)
}

func TestClientFirstTokenTimeoutDespiteKeepalives(t *testing.T) {
	srv := ssetest.New(t, func(w *ssetest.Writer) {
		w.StreamHeader()
		w.Event(ssetest.ChatDelta(map[string]any{"role": "assistant", "content": ""}))
		for range 40 {
			if !w.Sleep(25 * time.Millisecond) {
				return
			}
			w.Raw(": keepalive\n\n")
		}
	})
	c := chatClient()
	c.FirstTokenTimeout = 200 * time.Millisecond
	c.IdleTimeout = time.Second
	out := sendRow(t, srv, c, chatRow())
	wantStatus(t, out, record.StatusTimeout)
	if *out.Timeout != record.TimeoutFirstToken {
		t.Errorf("timeout %s, want first_token", *out.Timeout)
	}
	wantDue(t, out, *out.SentMS+200)
	wantInt(t, "HTTP status", out.HTTPStatus, 200)
}

func TestClientTotalTimeout(t *testing.T) {
	srv := ssetest.New(t, func(w *ssetest.Writer) {
		w.StreamHeader()
		for range 40 {
			w.Content(ssetest.ChatContent("x"))
			if !w.Sleep(50 * time.Millisecond) {
				return
			}
		}
		w.Done()
	})
	c := chatClient()
	c.TotalTimeout = 300 * time.Millisecond
	c.FirstTokenTimeout = time.Second
	c.IdleTimeout = time.Second
	out := sendRow(t, srv, c, chatRow())
	wantStatus(t, out, record.StatusTimeout)
	if *out.Timeout != record.TimeoutTotal {
		t.Errorf("timeout %s, want total", *out.Timeout)
	}
	// The total deadline runs from the hand-over to the transport, a
	// moment before d.
	if due := *out.TimeoutDueMS; due > *out.SentMS+300 || out.TerminalMS < due {
		t.Errorf("total deadline due at %.3f ms, fired at %.3f ms; want due by sent + 300 = %.3f ms and fired after it",
			due, out.TerminalMS, *out.SentMS+300)
	}
	// The server writes one event per 50 ms until the client goes away:
	// the client cannot have seen more than it wrote, and it saw at least
	// the first, which comes at once.
	if n, written := len(out.ContentMS), len(srv.ContentTimes()); n < 1 || n > written {
		t.Errorf("%d content events recorded, the server wrote %d", n, written)
	}
}

func TestClientCancelledInFlight(t *testing.T) {
	srv := ssetest.New(t, func(w *ssetest.Writer) {
		w.StreamHeader()
		w.Content(ssetest.ChatContent("a"))
		w.Sleep(3 * time.Second)
	})
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(150*time.Millisecond, cancel)
	out := sendRowCtx(t, ctx, srv, chatClient(), chatRow())
	wantStatus(t, out, record.StatusCancelled)
	within(t, "terminal at the cancellation", out.TerminalMS, 150)
	if out.SentMS == nil || len(out.ContentMS) != 1 {
		t.Errorf("sent %v content %v", show(out.SentMS), out.ContentMS)
	}
}

func TestClientCancelledBeforeSend(t *testing.T) {
	srv := ssetest.New(t, func(w *ssetest.Writer) { t.Error("the request reached the server") })
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	out := sendRowCtx(t, ctx, srv, chatClient(), chatRow())
	wantStatus(t, out, record.StatusNotSent)
	wantNil(t, "sent", out.SentMS)
}

func TestClientBadExtraIsNotSent(t *testing.T) {
	srv := ssetest.New(t, func(w *ssetest.Writer) { t.Error("the request reached the server") })
	row := chatRow()
	row.Extra = map[string]json.RawMessage{"temperature": json.RawMessage("{bad")}
	out := sendRow(t, srv, chatClient(), row)
	wantStatus(t, out, record.StatusNotSent)
	wantContains(t, "error", out.Error, `extra field "temperature"`)
}

func TestClientNeverHangsOnAServerThatKeepsTheStreamOpenAfterDone(t *testing.T) {
	// After [DONE] the client reads on only briefly (to reuse the
	// connection); a server that keeps the response open does not hold Do.
	srv := ssetest.New(t, func(w *ssetest.Writer) {
		w.StreamHeader()
		w.Content(ssetest.ChatContent("a"))
		w.Done()
		w.Sleep(3 * time.Second)
	})
	begin := time.Now()
	out := sendRow(t, srv, chatClient(), chatRow())
	wantStatus(t, out, record.StatusSuccess)
	if took := time.Since(begin); took > 2500*time.Millisecond { // the server holds on for 3 s
		t.Errorf("Do took %v after [DONE]", took)
	}
}

func TestClientIdleClockStartsAtTheFirstLine(t *testing.T) {
	// Headers at once, the first line only after 300 ms (three idle
	// periods): no idle timeout yet, since no line had come. Then a stall
	// after the first content ends the request one idle period later.
	srv := ssetest.New(t, func(w *ssetest.Writer) {
		w.StreamHeader()
		w.Sleep(300 * time.Millisecond)
		w.Content(ssetest.ChatContent("a"))
		w.Sleep(2 * time.Second)
	})
	c := chatClient()
	c.IdleTimeout = 100 * time.Millisecond
	out := sendRow(t, srv, c, chatRow())
	wantStatus(t, out, record.StatusTimeout)
	if *out.Timeout != record.TimeoutIdle || len(out.ContentMS) != 1 {
		t.Fatalf("timeout %s content %v, want idle after one event", *out.Timeout, out.ContentMS)
	}
	if got := *out.FirstContentMS - *out.SentMS; got < 300 {
		t.Errorf("first content %.3f ms after d, before the server's 300 ms wait", got)
	}
	// Due one idle period after the first line, not after d: the idle
	// clock had not started during the 300 ms without a line.
	wantDue(t, out, *out.FirstContentMS+100)
}

// wantDue fails unless out's deadline was due at want (from the record's
// own times, exact to its 1 µs rounding) and fired no earlier.
func wantDue(t *testing.T, out *record.Outcome, want float64) {
	t.Helper()
	if out.TimeoutDueMS == nil {
		t.Fatal("timeout_due_ms is null")
	}
	if due := *out.TimeoutDueMS; due < want-0.0015 || due > want+0.0015 {
		t.Errorf("deadline due at %.3f ms, want %.3f ms", due, want)
	}
	if out.TerminalMS < *out.TimeoutDueMS {
		t.Errorf("terminal %.3f ms before the deadline was due at %.3f ms", out.TerminalMS, *out.TimeoutDueMS)
	}
}
