// Package ssetest serves scripted OpenAI-style event streams on 127.0.0.1
// for tests: a script writes a response step by step (headers, events,
// pauses, the [DONE] line), and the server records when it wrote content
// and what each request carried, on the same clock as the client.
package ssetest

import (
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/servebench/servebench/servebench/record"
)

// Server is an HTTP server on 127.0.0.1 whose handler runs a script
// against an Writer, recording when it wrote content on the same clock
// as the client (start is the run's start instant handed to Do).
type Server struct {
	*httptest.Server
	// Epoch is the server's start instant: hand it to Client.Do as the
	// run's start so that both sides share one clock.
	Epoch time.Time

	mu        sync.Mutex
	contentAt []time.Duration // server time just before each content write
	marks     []time.Duration // server times a script marked (see Writer.mark)
	bodies    [][]byte
	headers   []http.Header
}

// New starts a server whose every request runs script.
func New(t testing.TB, script func(w *Writer)) *Server {
	t.Helper()
	return NewWith(t, script, nil)
}

// NewWith is newScriptServer with a chance to configure the
// http.Server before it starts.
func NewWith(t testing.TB, script func(w *Writer), configure func(*http.Server)) *Server {
	t.Helper()
	s := &Server{Epoch: time.Now()}
	s.Server = httptest.NewUnstartedServer(http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		s.mu.Lock()
		s.bodies = append(s.bodies, body)
		s.headers = append(s.headers, r.Header.Clone())
		s.mu.Unlock()
		script(&Writer{s: s, RW: rw, R: r})
	}))
	if configure != nil {
		configure(s.Config)
	}
	s.Start()
	t.Cleanup(s.Close)
	return s
}

// ContentTimes returns the server's content write times in milliseconds.
func (s *Server) ContentTimes() []float64 { return s.millisOf(&s.contentAt) }

// MarkTimes returns the server's marked times in milliseconds.
func (s *Server) MarkTimes() []float64 { return s.millisOf(&s.marks) }

// millisOf converts the times *ds holds, under the lock, into the
// records' milliseconds.
func (s *Server) millisOf(ds *[]time.Duration) []float64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]float64, len(*ds))
	for i, d := range *ds {
		out[i] = record.Millis(d)
	}
	return out
}

// LastBody returns the body of the latest request.
func (s *Server) LastBody() []byte {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.bodies[len(s.bodies)-1]
}

// Bodies returns a copy of every request body received, in order.
func (s *Server) Bodies() [][]byte {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([][]byte(nil), s.bodies...)
}

// Headers returns a copy of every request's headers, in order.
func (s *Server) Headers() []http.Header {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]http.Header(nil), s.headers...)
}

// LastHeader returns the headers of the latest request.
func (s *Server) LastHeader() http.Header {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.headers[len(s.headers)-1]
}

// Writer writes a response step by step, flushing after each step.
type Writer struct {
	s *Server
	// RW is the response being written.
	RW http.ResponseWriter
	// R is the request being answered.
	R *http.Request
}

// StreamHeader sends 200 with the event-stream content type.
func (w *Writer) StreamHeader() {
	w.RW.Header().Set("Content-Type", "text/event-stream")
	w.RW.WriteHeader(http.StatusOK)
	w.Flush()
}

// Raw writes bytes as they are and flushes them.
func (w *Writer) Raw(s string) {
	_, _ = io.WriteString(w.RW, s)
	w.Flush()
}

// Event writes one data event.
func (w *Writer) Event(data string) { w.Raw("data: " + data + "\n\n") }

// Content writes one data event that carries content, recording when.
func (w *Writer) Content(data string) {
	w.NoteContent()
	w.Event(data)
}

// NoteContent records the server's time now as a content write, for a
// script that writes content in its own framing.
func (w *Writer) NoteContent() {
	w.s.mu.Lock()
	w.s.contentAt = append(w.s.contentAt, time.Since(w.s.Epoch))
	w.s.mu.Unlock()
}

// Mark records the server's time now, on the client's clock: a lower
// bound, exact on any machine, for when the client can see what the
// script writes next.
func (w *Writer) Mark() {
	w.s.mu.Lock()
	w.s.marks = append(w.s.marks, time.Since(w.s.Epoch))
	w.s.mu.Unlock()
}

// Done writes the stream's end.
func (w *Writer) Done() { w.Event("[DONE]") }

// Sleep waits d, or less if the client went away; it reports whether the
// client is still there.
func (w *Writer) Sleep(d time.Duration) bool {
	select {
	case <-time.After(d):
		return true
	case <-w.R.Context().Done():
		return false
	}
}

// Flush sends what was written so far.
func (w *Writer) Flush() { http.NewResponseController(w.RW).Flush() }

// Chunk renders a streamed chunk with one choice (index 0).
func Chunk(choice map[string]any) string {
	choice["index"] = 0
	return MustJSON(map[string]any{"id": "cmpl-test", "object": "chat.completion.chunk", "created": 1764400000,
		"model": "test-model", "choices": []any{choice}})
}

// ChatDelta renders a chat chunk whose delta is d.
func ChatDelta(d map[string]any) string {
	return Chunk(map[string]any{"delta": d, "logprobs": nil, "finish_reason": nil})
}

// ChatContent renders a chat chunk carrying text.
func ChatContent(text string) string { return ChatDelta(map[string]any{"content": text}) }

// ChatFinish renders a chat chunk with an empty delta and a finish reason.
func ChatFinish(reason string) string {
	return Chunk(map[string]any{"delta": map[string]any{}, "logprobs": nil, "finish_reason": reason})
}

// TextChunk renders a completions chunk; tokens, when not nil, become its
// logprobs.
func TextChunk(text string, tokens []string, finish any) string {
	c := map[string]any{"text": text, "logprobs": nil, "finish_reason": finish}
	if tokens != nil {
		lp := make([]float64, len(tokens))
		c["logprobs"] = map[string]any{"tokens": tokens, "token_logprobs": lp, "top_logprobs": nil, "text_offset": make([]int, len(tokens))}
	}
	return Chunk(c)
}

// UsageChunk renders the include_usage chunk (empty choices).
func UsageChunk(prompt, completion int) string {
	return MustJSON(map[string]any{"id": "cmpl-test", "object": "chat.completion.chunk", "choices": []any{},
		"usage": map[string]any{"prompt_tokens": prompt, "completion_tokens": completion, "total_tokens": prompt + completion}})
}

// MustJSON renders v as JSON, panicking on a value that cannot be.
func MustJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return string(b)
}

// ClosedPortURL is an http URL on a loopback port that nothing listens on.
func ClosedPortURL(t testing.TB) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	_ = l.Close()
	return "http://" + addr
}

// JSONAnswer answers with a whole JSON body after a delay, recording when
// the body was written as the content time.
func JSONAnswer(delay time.Duration, body string) func(w *Writer) {
	return func(w *Writer) {
		w.Sleep(delay)
		w.RW.Header().Set("Content-Type", "application/json")
		w.NoteContent()
		_, _ = w.RW.Write([]byte(body))
	}
}

// EmbeddingsAnswer is an OpenAI embeddings answer with one vector of dims
// dimensions per entry of dims.
func EmbeddingsAnswer(promptTokens int, dims ...int) string {
	data := make([]any, len(dims))
	for i, d := range dims {
		vec := make([]float64, d)
		for j := range vec {
			vec[j] = 0.25 * float64(j+1)
		}
		data[i] = map[string]any{"object": "embedding", "index": i, "embedding": vec}
	}
	return MustJSON(map[string]any{"object": "list", "model": "m", "data": data,
		"usage": map[string]any{"prompt_tokens": promptTokens, "total_tokens": promptTokens}})
}
