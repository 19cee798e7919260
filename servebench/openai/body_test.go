package openai_test

import (
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/servebench/servebench/internal/ssetest"
	"github.com/servebench/servebench/servebench/openai"
	"github.com/servebench/servebench/servebench/record"
)

// okStream answers every request with a short successful stream.
func okStream(w *ssetest.Writer) {
	w.StreamHeader()
	w.Content(ssetest.ChatContent("ok"))
	w.Event(ssetest.UsageChunk(1, 1))
	w.Done()
}

func TestClientRequestBody(t *testing.T) {
	srv := ssetest.New(t, okStream)
	cases := []struct {
		name   string
		client openai.Client
		row    record.Request
		want   string
	}{
		{"completions streaming",
			openai.Client{Model: "m", Endpoint: record.EndpointCompletions},
			record.Request{Prompt: "Say <hi> & bye", MaxTokens: 32},
			`{"model":"m","prompt":"Say <hi> & bye","max_tokens":32,"stream":true,"stream_options":{"include_usage":true}}`},
		{"completions logprobs and ignore_eos",
			openai.Client{Model: "m", Endpoint: record.EndpointCompletions, Logprobs: true},
			record.Request{Prompt: "p", MaxTokens: 8, IgnoreEOS: true},
			`{"model":"m","prompt":"p","max_tokens":8,"stream":true,"stream_options":{"include_usage":true},"logprobs":1,"ignore_eos":true}`},
		{"chat logprobs, ignore_eos and min_tokens",
			openai.Client{Model: "m", Endpoint: record.EndpointChat,
				Logprobs: true, LengthControl: openai.LengthIgnoreEOSMinTokens},
			record.Request{Messages: []record.Message{{Role: "system", Content: "be brief"}, {Role: "user", Content: "q"}}, MaxTokens: 64, IgnoreEOS: true},
			`{"model":"m","messages":[{"role":"system","content":"be brief"},{"role":"user","content":"q"}],"max_tokens":64,"stream":true,"stream_options":{"include_usage":true},"logprobs":true,"top_logprobs":0,"ignore_eos":true,"min_tokens":64}`},
		{"unsupported length control sends nothing",
			openai.Client{Model: "m", Endpoint: record.EndpointChat, LengthControl: openai.LengthUnsupported},
			record.Request{Prompt: "as a user message", MaxTokens: 4, IgnoreEOS: true},
			`{"model":"m","messages":[{"role":"user","content":"as a user message"}],"max_tokens":4,"stream":true,"stream_options":{"include_usage":true}}`},
		{"extra wins and is merged in key order",
			openai.Client{Model: "m", Endpoint: record.EndpointCompletions},
			record.Request{Prompt: "p", MaxTokens: 100, IgnoreEOS: true, Extra: map[string]json.RawMessage{
				"temperature": json.RawMessage(`0`), "max_tokens": json.RawMessage(` 7 `), "ignore_eos": json.RawMessage(`false`),
				"stop": json.RawMessage(`["\n"]`)}},
			`{"model":"m","prompt":"p","stream":true,"stream_options":{"include_usage":true},"ignore_eos":false,"max_tokens":7,"stop":["\n"],"temperature":0}`},
		{"no max_tokens when the row sets none",
			openai.Client{Model: "m", Endpoint: record.EndpointCompletions},
			record.Request{Prompt: "p"},
			`{"model":"m","prompt":"p","stream":true,"stream_options":{"include_usage":true}}`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cl := c.client
			c.row.ID = "r9"
			out := sendRow(t, srv, &cl, &c.row)
			wantStatus(t, out, record.StatusSuccess)
			if got := string(srv.LastBody()); got != c.want {
				t.Errorf("body\n got %s\nwant %s", got, c.want)
			}
			if !json.Valid(srv.LastBody()) {
				t.Error("body is not valid JSON")
			}
		})
	}
}

func TestClientHeadersAndPaths(t *testing.T) {
	var mu sync.Mutex
	var paths []string
	srv := ssetest.New(t, func(w *ssetest.Writer) {
		mu.Lock()
		paths = append(paths, w.R.URL.Path)
		mu.Unlock()
		okStream(w)
	})
	c := chatClient()
	c.APIKey = "sk-test-123"
	out := sendRow(t, srv, c, chatRow())
	wantStatus(t, out, record.StatusSuccess)
	h := srv.LastHeader()
	for k, want := range map[string]string{
		"Authorization": "Bearer sk-test-123", "X-Request-Id": "run-1/r1/1", "Content-Type": "application/json",
		"Accept": "text/event-stream", "Accept-Encoding": "",
	} {
		if got := h.Get(k); got != want {
			t.Errorf("header %s = %q, want %q", k, got, want)
		}
	}
	// A base URL ending in /v1 is not doubled; completions use their path.
	c2 := completionsClient()
	out = &record.Outcome{}
	c2.BaseURL = srv.URL + "/v1/"
	c2.Do(t.Context(), srv.Epoch, promptRow(), "", out)
	wantStatus(t, out, record.StatusSuccess)
	mu.Lock()
	defer mu.Unlock()
	if want := []string{"/v1/chat/completions", "/v1/completions"}; fmt.Sprint(paths) != fmt.Sprint(want) {
		t.Errorf("paths %v, want %v", paths, want)
	}
	if h := srv.LastHeader(); h.Get("Authorization") != "" || h.Get("X-Request-Id") != "" {
		t.Errorf("headers sent without a key or request ID: %v", h)
	}
}

func TestClientAPIKeyNeverRecorded(t *testing.T) {
	const key = "sk-live-0123456789abcdef"
	srv := ssetest.New(t, func(w *ssetest.Writer) {
		if w.R.Header.Get("Authorization") != "Bearer "+key {
			w.RW.WriteHeader(http.StatusUnauthorized)
			return
		}
		switch w.R.URL.Query().Get("case") {
		case "echo-error":
			w.RW.WriteHeader(http.StatusUnauthorized)
			_, _ = w.RW.Write([]byte(`{"error":{"message":"key ` + key + ` is not allowed for this model"}}`))
		default:
			w.StreamHeader()
			w.Content(ssetest.ChatContent("the key is " + key))
			w.Event(ssetest.ChatFinish(key))
			w.Done()
		}
	})
	for _, q := range []string{"echo-error", "echo-text"} {
		c := chatClient()
		c.APIKey, c.KeepText = key, true
		out := &record.Outcome{}
		c.BaseURL = srv.URL
		c.HTTPClient = &http.Client{Transport: rewriteQuery{q}}
		c.Do(t.Context(), srv.Epoch, chatRow(), "id", out)
		checkInvariants(t, out)
		b, _ := json.Marshal(out)
		if strings.Contains(string(b), key) {
			t.Errorf("%s: the API key appears in the record: %s", q, b)
		}
		if q == "echo-error" {
			wantStatus(t, out, record.StatusHTTPError)
			wantContains(t, "error", out.Error, "key [redacted] is not allowed")
		} else {
			wantStatus(t, out, record.StatusSuccess)
			if *out.Text != "the key is [redacted]" {
				t.Errorf("text %q", *out.Text)
			}
		}
		for _, s := range []string{fmt.Sprint(c), fmt.Sprintf("%+v", c), fmt.Sprintf("%#v", c), fmt.Sprintf("%v", *c)} {
			if strings.Contains(s, key) {
				t.Errorf("the key appears in the Client's text form: %s", s)
			}
		}
		if b, _ := json.Marshal(c); strings.Contains(string(b), key) {
			t.Errorf("the key appears in the Client's JSON: %s", b)
		}
	}
}

// rewriteQuery is a transport that adds a case query to each request, so
// one server can play several scripts.
type rewriteQuery struct{ q string }

func (r rewriteQuery) RoundTrip(req *http.Request) (*http.Response, error) {
	req = req.Clone(req.Context())
	req.URL.RawQuery = "case=" + r.q
	return openai.NewTransport().RoundTrip(req)
}

func TestClientReusesOneConnection(t *testing.T) {
	var opened atomic.Int32
	countNew := func(cfg *http.Server) {
		cfg.ConnState = func(_ net.Conn, s http.ConnState) {
			if s == http.StateNew {
				opened.Add(1)
			}
		}
	}
	srv := ssetest.NewWith(t, okStream, countNew)
	c := chatClient()
	for i := range 20 {
		row := chatRow()
		row.ID = fmt.Sprint("r", i)
		out := sendRow(t, srv, c, row)
		wantStatus(t, out, record.StatusSuccess)
	}
	if n := opened.Load(); n != 1 {
		t.Errorf("%d connections opened for 20 sequential requests, want 1", n)
	}
	// Error responses and error events drain the body too.
	errSrv := ssetest.NewWith(t, func(w *ssetest.Writer) {
		if w.R.Header.Get("X-Request-Id") == "run-1/e/1" {
			w.RW.WriteHeader(http.StatusTooManyRequests)
			_, _ = w.RW.Write([]byte(`{"error":"slow down"}`))
			return
		}
		w.StreamHeader()
		w.Event(ssetest.MustJSON(map[string]any{"error": map[string]any{"message": "bad"}}))
		w.Done()
	}, countNew)
	opened.Store(0)
	for i := range 10 {
		row := chatRow()
		row.ID = []string{"e", "s"}[i%2]
		out := sendRow(t, errSrv, c, row)
		if out.Status != record.StatusRejected && out.Status != record.StatusStreamError {
			t.Fatalf("status %s", out.Status)
		}
	}
	if n := opened.Load(); n != 1 {
		t.Errorf("%d connections opened for 10 failed requests, want 1", n)
	}
}
