package openai_test

import (
	"encoding/base64"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/servebench/servebench/internal/ssetest"
	"github.com/servebench/servebench/servebench/openai"
	"github.com/servebench/servebench/servebench/record"
)

// FuzzClientStream sends arbitrary response bytes through a real HTTP
// stream and checks that Do ends every request in a consistent terminal
// record, without panicking or hanging. The bytes travel in the request
// body (an Extra field), so the server needs no shared state.
func FuzzClientStream(f *testing.F) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var body struct {
			Script []byte `json:"fuzz_script"`
			Split  int    `json:"fuzz_split"`
		}
		if err := json.NewDecoder(r.Body).Decode(&body); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		w.Header().Set("Content-Type", "text/event-stream")
		rc := http.NewResponseController(w)
		step := 1 + body.Split%64
		for i := 0; i < len(body.Script); i += step {
			_, _ = w.Write(body.Script[i:min(i+step, len(body.Script))])
			_ = rc.Flush()
		}
	}))
	f.Cleanup(srv.Close)
	seeds := []string{
		"data: " + ssetest.ChatContent("hi") + "\n\ndata: " + ssetest.UsageChunk(1, 1) + "\n\ndata: [DONE]\n\n",
		"data: " + ssetest.TextChunk(" a", []string{" a"}, "length") + "\r\n\r\ndata: [DONE]\r\n\r\n",
		": keepalive\n\nevent: error\ndata: {\"error\":\"x\"}\n\n",
		"data: {\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":3,\"function\":{\"name\":\"f\",\"arguments\":\"{\"}}]}}]}\n\ndata: [DONE]\n\n",
		"data: {\"choices\":[{\"index\":0,\"logprobs\":{\"content\":[{\"t\":\"]\"}]},\"delta\":{\"content\":\"]\"}}],\"usage\":{\"completion_tokens\":1e9}}\n\ndata: [DONE]\n\n",
		"data: {\"choices\":\"nope\"}\n\n",
		"data: [DONE]",
		"\xEF\xBB\xBFdata: {}\n\ndata: [DONE]\n\n",
	}
	for i, s := range seeds {
		f.Add([]byte(s), i*7)
	}
	c := &openai.Client{BaseURL: srv.URL, Model: "m", Endpoint: record.EndpointChat,
		TotalTimeout: 5 * time.Second, KeepText: true, Logprobs: true, EstimateTokens: true}
	start := time.Now()
	f.Fuzz(func(t *testing.T, script []byte, split int) {
		if split < 0 {
			split = -split
		}
		row := &record.Request{ID: "f", Prompt: "p", MaxTokens: 4, Extra: map[string]json.RawMessage{
			"fuzz_script": json.RawMessage(`"` + base64.StdEncoding.EncodeToString(script) + `"`),
			"fuzz_split":  json.RawMessage(ssetest.MustJSON(split % 1000)),
		}}
		out := &record.Outcome{ID: "f", Attempt: 1}
		c.Do(t.Context(), start, row, "fuzz", out)
		checkInvariants(t, out)
		if out.Status == record.StatusTimeout {
			t.Fatalf("a server that ends its response promptly led to a timeout: %q", out.Error)
		}
		if out.HTTPStatus == nil || *out.HTTPStatus != 200 {
			t.Fatalf("HTTP status %v", show(out.HTTPStatus))
		}
		if out.Status == record.StatusSuccess && len(out.ContentMS) == 0 {
			t.Fatal("success without content")
		}
	})
}
