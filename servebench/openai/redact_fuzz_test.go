package openai_test

import (
	"encoding/base64"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/servebench/servebench/internal/redact"
	"github.com/servebench/servebench/internal/ssetest"
	"github.com/servebench/servebench/servebench/openai"
	"github.com/servebench/servebench/servebench/record"
)

// FuzzRedactorAcrossChunks splices a header's secret value into a real
// SSE stream, split between two events at any byte and the stream's bytes
// written in reads of any size, and as an error event's message; no
// 8-byte piece of the secret may reach the record's text or error.
func FuzzRedactorAcrossChunks(f *testing.F) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var body struct {
			Script []byte `json:"fuzz_script"`
			Step   int    `json:"fuzz_step"`
		}
		if err := json.NewDecoder(r.Body).Decode(&body); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		w.Header().Set("Content-Type", "text/event-stream")
		rc := http.NewResponseController(w)
		for i := 0; i < len(body.Script); i += body.Step {
			_, _ = w.Write(body.Script[i:min(i+body.Step, len(body.Script))])
			_ = rc.Flush()
		}
	}))
	f.Cleanup(srv.Close)
	f.Add("gwSECRET0123456789", "echo ", " end", 7, 3, false)
	f.Add("abcdefgh", "", "", 0, 1, true)
	f.Add("TOKEN9876543210xyz", "xx", "TOKEN98", 17, 64, false)
	start := time.Now()
	f.Fuzz(func(t *testing.T, secret, prefix, suffix string, split, step int, asError bool) {
		if len(secret) < redact.MinPiece || len(secret) > 256 || !alnum(secret) || !alnum(prefix+suffix) {
			t.Skip("secrets and text of letters and digits, 8 to 256 bytes")
		}
		split = abs(split) % (len(secret) + 1)
		var script string
		if asError {
			script = "data: " + ssetest.ChatContent(prefix) + "\n\nevent: error\ndata: " +
				ssetest.MustJSON(map[string]any{"error": map[string]any{"message": prefix + secret + suffix}}) + "\n\n"
		} else {
			script = "data: " + ssetest.ChatContent(prefix+secret[:split]) + "\n\ndata: " + ssetest.ChatContent(secret[split:]+suffix) + "\n\ndata: [DONE]\n\n"
		}
		c := &openai.Client{BaseURL: srv.URL, Model: "m", Endpoint: record.EndpointChat,
			TotalTimeout: 5 * time.Second, KeepText: true, Header: http.Header{"X-Key": {secret}}}
		row := &record.Request{ID: "f", Prompt: "p", MaxTokens: 4, Extra: map[string]json.RawMessage{
			"fuzz_script": json.RawMessage(`"` + base64.StdEncoding.EncodeToString([]byte(script)) + `"`),
			"fuzz_step":   json.RawMessage(ssetest.MustJSON(1 + abs(step)%64)),
		}}
		out := &record.Outcome{ID: "f", Attempt: 1}
		c.Do(t.Context(), start, row, "fuzz/f/1", out)
		text := out.Error
		if out.Text != nil {
			text += "\x00" + *out.Text
		}
		for i := 0; i+redact.MinPiece <= len(secret); i++ {
			if piece := secret[i : i+redact.MinPiece]; strings.Contains(text, piece) {
				t.Fatalf("status %s: the record holds %q of the secret: %q", out.Status, piece, text)
			}
		}
	})
}

// alnum reports whether s holds only ASCII letters and digits.
func alnum(s string) bool {
	return strings.IndexFunc(s, func(r rune) bool {
		return (r < 'a' || r > 'z') && (r < 'A' || r > 'Z') && (r < '0' || r > '9')
	}) < 0
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}
