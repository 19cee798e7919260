package servebench_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/servebench/servebench/servebench/record"

	"github.com/servebench/servebench/servebench"
)

// slack is the tolerance allowed above a time computed from the server's
// sleeps. Lower bounds are exact (a client cannot receive bytes before the
// server writes them); upper bounds only catch gross errors, since the
// machine running the tests may be shared and loaded (.ci/flake-check.sh
// runs the suite with both cores busy). How promptly the client stamps and
// fires is measured by the benchmarks and loadcheck, not asserted here.
const slack = time.Second

// scriptServer is an HTTP server on 127.0.0.1 whose handler runs a script
// against an sseWriter, recording when it wrote content on the same clock
// as the client (start is the run's start instant handed to Do).
type scriptServer struct {
	*httptest.Server
	start time.Time

	mu        sync.Mutex
	contentAt []time.Duration // server time just before each content write
	marks     []time.Duration // server times a script marked (see sseWriter.mark)
	bodies    [][]byte
	headers   []http.Header
}

// newScriptServer starts a server whose every request runs script.
func newScriptServer(t testing.TB, script func(w *sseWriter)) *scriptServer {
	t.Helper()
	return newScriptServerWith(t, script, nil)
}

// newScriptServerWith is newScriptServer with a chance to configure the
// http.Server before it starts.
func newScriptServerWith(t testing.TB, script func(w *sseWriter), configure func(*http.Server)) *scriptServer {
	t.Helper()
	s := &scriptServer{start: time.Now()}
	s.Server = httptest.NewUnstartedServer(http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		s.mu.Lock()
		s.bodies = append(s.bodies, body)
		s.headers = append(s.headers, r.Header.Clone())
		s.mu.Unlock()
		script(&sseWriter{s: s, rw: rw, r: r})
	}))
	if configure != nil {
		configure(s.Config)
	}
	s.Start()
	t.Cleanup(s.Close)
	return s
}

// contentTimes returns the server's content write times in milliseconds.
func (s *scriptServer) contentTimes() []float64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]float64, len(s.contentAt))
	for i, d := range s.contentAt {
		out[i] = servebench.Millis(d)
	}
	return out
}

// markTimes returns the server's marked times in milliseconds.
func (s *scriptServer) markTimes() []float64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]float64, len(s.marks))
	for i, d := range s.marks {
		out[i] = servebench.Millis(d)
	}
	return out
}

// lastBody returns the body of the latest request.
func (s *scriptServer) lastBody() []byte {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.bodies[len(s.bodies)-1]
}

// lastHeader returns the headers of the latest request.
func (s *scriptServer) lastHeader() http.Header {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.headers[len(s.headers)-1]
}

// sseWriter writes a response step by step, flushing after each step.
type sseWriter struct {
	s  *scriptServer
	rw http.ResponseWriter
	r  *http.Request
}

// streamHeader sends 200 with the event-stream content type.
func (w *sseWriter) streamHeader() {
	w.rw.Header().Set("Content-Type", "text/event-stream")
	w.rw.WriteHeader(http.StatusOK)
	w.flush()
}

// raw writes bytes as they are and flushes them.
func (w *sseWriter) raw(s string) {
	_, _ = io.WriteString(w.rw, s)
	w.flush()
}

// event writes one data event.
func (w *sseWriter) event(data string) { w.raw("data: " + data + "\n\n") }

// content writes one data event that carries content, recording when.
func (w *sseWriter) content(data string) {
	w.s.mu.Lock()
	w.s.contentAt = append(w.s.contentAt, time.Since(w.s.start))
	w.s.mu.Unlock()
	w.event(data)
}

// mark records the server's time now, on the client's clock: a lower
// bound, exact on any machine, for when the client can see what the
// script writes next.
func (w *sseWriter) mark() {
	w.s.mu.Lock()
	w.s.marks = append(w.s.marks, time.Since(w.s.start))
	w.s.mu.Unlock()
}

// done writes the stream's end.
func (w *sseWriter) done() { w.event("[DONE]") }

// sleep waits d, or less if the client went away; it reports whether the
// client is still there.
func (w *sseWriter) sleep(d time.Duration) bool {
	select {
	case <-time.After(d):
		return true
	case <-w.r.Context().Done():
		return false
	}
}

func (w *sseWriter) flush() { http.NewResponseController(w.rw).Flush() }

// sseChunk renders a streamed chunk with one choice (index 0).
func sseChunk(choice map[string]any) string {
	choice["index"] = 0
	return mustJSON(map[string]any{"id": "cmpl-test", "object": "chat.completion.chunk", "created": 1764400000,
		"model": "test-model", "choices": []any{choice}})
}

// chatDelta renders a chat chunk whose delta is d.
func chatDelta(d map[string]any) string {
	return sseChunk(map[string]any{"delta": d, "logprobs": nil, "finish_reason": nil})
}

// chatContent renders a chat chunk carrying text.
func chatContent(text string) string { return chatDelta(map[string]any{"content": text}) }

// chatFinish renders a chat chunk with an empty delta and a finish reason.
func chatFinish(reason string) string {
	return sseChunk(map[string]any{"delta": map[string]any{}, "logprobs": nil, "finish_reason": reason})
}

// textChunk renders a completions chunk; tokens, when not nil, become its
// logprobs.
func textChunk(text string, tokens []string, finish any) string {
	c := map[string]any{"text": text, "logprobs": nil, "finish_reason": finish}
	if tokens != nil {
		lp := make([]float64, len(tokens))
		c["logprobs"] = map[string]any{"tokens": tokens, "token_logprobs": lp, "top_logprobs": nil, "text_offset": make([]int, len(tokens))}
	}
	return sseChunk(c)
}

// usageChunk renders the include_usage chunk (empty choices).
func usageChunk(prompt, completion int) string {
	return mustJSON(map[string]any{"id": "cmpl-test", "object": "chat.completion.chunk", "choices": []any{},
		"usage": map[string]any{"prompt_tokens": prompt, "completion_tokens": completion, "total_tokens": prompt + completion}})
}

func mustJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return string(b)
}

// sendRow sends one request for row through c against srv and returns the
// record.
func sendRow(t *testing.T, srv *scriptServer, c *servebench.Client, row *record.Request) *record.Outcome {
	t.Helper()
	return sendRowCtx(t, context.Background(), srv, c, row)
}

func sendRowCtx(t *testing.T, ctx context.Context, srv *scriptServer, c *servebench.Client, row *record.Request) *record.Outcome {
	t.Helper()
	c.BaseURL = srv.URL
	out := &record.Outcome{ID: row.ID, Attempt: 1, ScheduledMS: 0, SlotMS: ptrTo(0.0)}
	c.Do(ctx, srv.start, row, "run-1/"+row.ID+"/1", out)
	checkInvariants(t, out)
	return out
}

// checkInvariants asserts what every record must satisfy whatever happened.
func checkInvariants(t *testing.T, out *record.Outcome) {
	t.Helper()
	if !out.Status.Valid() {
		t.Fatalf("status %q is not a terminal status (error %q)", out.Status, out.Error)
	}
	if out.SentMS != nil && out.TerminalMS < *out.SentMS {
		t.Errorf("terminal %.3f ms before sent %.3f ms", out.TerminalMS, *out.SentMS)
	}
	for i := 1; i < len(out.ContentMS); i++ {
		if out.ContentMS[i] < out.ContentMS[i-1] {
			t.Errorf("content times not in order: %v", out.ContentMS)
		}
	}
	if len(out.ContentMS) > 0 {
		if out.FirstContentMS == nil || *out.FirstContentMS != out.ContentMS[0] ||
			out.LastContentMS == nil || *out.LastContentMS != out.ContentMS[len(out.ContentMS)-1] {
			t.Errorf("first/last content %v/%v do not match content times %v", out.FirstContentMS, out.LastContentMS, out.ContentMS)
		}
	} else if out.FirstContentMS != nil || out.LastContentMS != nil {
		t.Errorf("first/last content set without content events")
	}
	if out.EventTokens != nil && len(out.EventTokens) != len(out.ContentMS) {
		t.Errorf("%d event token counts for %d content events", len(out.EventTokens), len(out.ContentMS))
	}
	if (out.Status == record.StatusTimeout) != (out.Timeout != nil) {
		t.Errorf("status %s with timeout kind %v", out.Status, out.Timeout)
	}
	if out.Status != record.StatusSuccess && out.Error == "" {
		t.Errorf("status %s without an error message", out.Status)
	}
	if out.Status == record.StatusSuccess && out.Error != "" {
		t.Errorf("success with error %q", out.Error)
	}
	if _, err := json.Marshal(out); err != nil {
		t.Errorf("record does not marshal: %v", err)
	}
}

// wantStatus fails unless out ended with status.
func wantStatus(t *testing.T, out *record.Outcome, status record.Status) {
	t.Helper()
	if out.Status != status {
		t.Fatalf("status %q (error %q), want %q", out.Status, out.Error, status)
	}
}

// within fails unless lo <= got <= lo+slack+extra (milliseconds).
func within(t *testing.T, what string, got, lo float64) {
	t.Helper()
	hi := lo + servebench.Millis(slack)
	if got < lo || got > hi {
		t.Errorf("%s = %.3f ms, want within [%.3f, %.3f]", what, got, lo, hi)
	}
}

// near fails unless |got - want| <= slack (milliseconds).
func near(t *testing.T, what string, got, want float64) {
	t.Helper()
	if d := got - want; d < -servebench.Millis(slack) || d > servebench.Millis(slack) {
		t.Errorf("%s = %.3f ms, want %.3f ± %.0f", what, got, want, servebench.Millis(slack))
	}
}

func ptrTo[T any](v T) *T { return &v }

func show[T any](p *T) any {
	if p == nil {
		return "<nil>"
	}
	return fmt.Sprint(*p)
}

// wantInt fails unless p points to want.
func wantInt(t *testing.T, what string, p *int, want int) {
	t.Helper()
	if p == nil || *p != want {
		t.Errorf("%s = %v, want %d", what, show(p), want)
	}
}

// wantNil fails unless p is nil.
func wantNil[T any](t *testing.T, what string, p *T) {
	t.Helper()
	if p != nil {
		t.Errorf("%s = %v, want nil", what, *p)
	}
}

// contains fails unless s contains sub.
func wantContains(t *testing.T, what, s, sub string) {
	t.Helper()
	if !strings.Contains(s, sub) {
		t.Errorf("%s = %q, want it to contain %q", what, s, sub)
	}
}
