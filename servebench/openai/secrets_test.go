package openai_test

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/servebench/servebench/internal/redact"
	"github.com/servebench/servebench/internal/ssetest"
	"github.com/servebench/servebench/servebench/openai"
	"github.com/servebench/servebench/servebench/record"
)

const gatewaySecret = "gw-SECRET-0123456789"

// secretClient is a chat client that keeps text and sends gatewaySecret
// in an extra header.
func secretClient() *openai.Client {
	c := chatClient()
	c.KeepText = true
	c.Header = http.Header{"X-Gateway-Key": {gatewaySecret}}
	return c
}

// wantNoSecretPiece fails when any 8-byte piece of gatewaySecret is in any
// text field of out.
func wantNoSecretPiece(t *testing.T, out *record.Outcome) {
	t.Helper()
	fields := []string{out.Error, out.FinishReason}
	if out.Text != nil {
		fields = append(fields, *out.Text)
	}
	for _, tc := range out.ToolCalls {
		fields = append(fields, tc.Name, tc.Arguments)
	}
	for _, f := range fields {
		for i := 0; i+redact.MinPiece <= len(gatewaySecret); i++ {
			if piece := gatewaySecret[i : i+redact.MinPiece]; strings.Contains(f, piece) {
				t.Errorf("record field %q holds %q of the header's value", f, piece)
			}
		}
	}
}

// TestClientRedactsHeaderValuesOnEveryPath: a gateway that echoes the
// extra header's value, whole, split across events and reads, or cut,
// into the stream's text, tool calls, finish reason, an error event, a
// 200 non-streaming body's error or an error body of any status leaves no
// 8-byte piece of it in the record; and the header did reach the server.
func TestClientRedactsHeaderValuesOnEveryPath(t *testing.T) {
	half := len(gatewaySecret) / 2
	cases := map[string]struct {
		status record.Status
		script func(w *ssetest.Writer)
	}{
		"text split across events": {record.StatusSuccess, func(w *ssetest.Writer) {
			w.StreamHeader()
			w.Content(ssetest.ChatContent("echo " + gatewaySecret[:half]))
			w.Content(ssetest.ChatContent(gatewaySecret[half:] + " end"))
			w.Event(ssetest.ChatFinish("stop"))
			w.Done()
		}},
		"text split inside one event's bytes": {record.StatusSuccess, func(w *ssetest.Writer) {
			w.StreamHeader()
			ev := "data: " + ssetest.ChatContent("echo "+gatewaySecret) + "\n\n"
			cut := strings.Index(ev, gatewaySecret) + 5
			w.Raw(ev[:cut])
			w.Raw(ev[cut:])
			w.Done()
		}},
		"tool call and finish reason": {record.StatusSuccess, func(w *ssetest.Writer) {
			w.StreamHeader()
			w.Content(ssetest.ChatDelta(map[string]any{"tool_calls": []any{map[string]any{"index": 0,
				"function": map[string]any{"name": "f" + gatewaySecret, "arguments": `{"k":"` + gatewaySecret + `"}`}}}}))
			w.Event(ssetest.ChatFinish("stop " + gatewaySecret))
			w.Done()
		}},
		"error event": {record.StatusStreamError, func(w *ssetest.Writer) {
			w.StreamHeader()
			w.Content(ssetest.ChatContent("partial"))
			w.Raw("event: error\ndata: " + ssetest.MustJSON(map[string]any{"error": map[string]any{"message": "bad key " + gatewaySecret}}) + "\n\n")
		}},
		"200 body with an error, truncated secret": {record.StatusStreamError, func(w *ssetest.Writer) {
			w.RW.Header().Set("Content-Type", "application/json")
			_, _ = fmt.Fprint(w.RW, ssetest.MustJSON(map[string]any{"error": "key " + gatewaySecret[:12] + "…"}))
		}},
		"302 body": {record.StatusHTTPError, func(w *ssetest.Writer) {
			w.RW.WriteHeader(http.StatusFound)
			_, _ = fmt.Fprint(w.RW, "moved, key "+gatewaySecret)
		}},
		"200 then 400 body": {record.StatusHTTPError, func(w *ssetest.Writer) {
			w.RW.WriteHeader(http.StatusBadRequest)
			_, _ = fmt.Fprint(w.RW, strings.Repeat("y", 505)+" "+gatewaySecret)
		}},
		"429 body": {record.StatusRejected, func(w *ssetest.Writer) {
			w.RW.WriteHeader(http.StatusTooManyRequests)
			_, _ = fmt.Fprint(w.RW, ssetest.MustJSON(map[string]any{"detail": "slow down " + gatewaySecret}))
		}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			srv := ssetest.New(t, tc.script)
			c := secretClient()
			if strings.Contains(name, "200 body") {
				c.NoStream = true
			}
			out := sendRow(t, srv, c, chatRow())
			wantStatus(t, out, tc.status)
			wantNoSecretPiece(t, out)
			if got := srv.LastHeader().Get("X-Gateway-Key"); got != gatewaySecret {
				t.Errorf("the server got X-Gateway-Key %q, want the flag's value", got)
			}
		})
	}
}

// TestClientRefusesReservedExtraHeaders: an extra header may not replace
// one the client sets; the error names the header, never its value.
func TestClientRefusesReservedExtraHeaders(t *testing.T) {
	for _, name := range []string{"Authorization", "content-type", "Accept", "X-Request-ID", "Host", "Content-Length", "Transfer-Encoding"} {
		err := openai.ValidateExtraHeader(name, "VALUE-"+gatewaySecret)
		if err == nil || !strings.Contains(err.Error(), "servebench sets this header itself") {
			t.Errorf("%s: err %v, want a refusal", name, err)
			continue
		}
		if strings.Contains(err.Error(), gatewaySecret) {
			t.Errorf("%s: the error quotes the value: %v", name, err)
		}
	}
	if err := openai.ValidateExtraHeader("X-Tenant", "a"); err != nil {
		t.Errorf("X-Tenant refused: %v", err)
	}
}

// TestClientDoesNotFollowRedirectsByDefault: a 302 (or 307) to another
// origin is an http_error with reason redirect naming the status and the
// target's origin only; the other origin receives nothing.
func TestClientDoesNotFollowRedirectsByDefault(t *testing.T) {
	other := ssetest.New(t, func(w *ssetest.Writer) { w.StreamHeader(); w.Content(ssetest.ChatContent("x")); w.Done() })
	for _, code := range []int{http.StatusFound, http.StatusTemporaryRedirect} {
		srv := ssetest.New(t, func(w *ssetest.Writer) {
			http.Redirect(w.RW, w.R, other.URL+"/v1/private/path?token=QUERYSECRET", code)
		})
		for _, policy := range []openai.RedirectPolicy{"", openai.RedirectNone, openai.RedirectSameOrigin} {
			c := secretClient()
			c.Redirects = policy
			out := sendRow(t, srv, c, chatRow())
			wantStatus(t, out, record.StatusHTTPError)
			if out.Reason != openai.ReasonRedirect {
				t.Errorf("%d %q: reason %q, want redirect", code, policy, out.Reason)
			}
			wantContains(t, "error", out.Error, fmt.Sprintf("HTTP %d: redirect to %s not followed", code, other.URL))
			if strings.Contains(out.Error, "private") || strings.Contains(out.Error, "QUERYSECRET") {
				t.Errorf("the error quotes the target's path or query: %q", out.Error)
			}
		}
	}
	if n := len(other.Bodies()); n != 0 {
		t.Errorf("the other origin received %d requests, want none", n)
	}
}

// TestClientFollowsSameOriginRedirectsKeepingMethodAndBody: with
// RedirectSameOrigin a 302 within the origin is followed with the same
// POST, body and headers, and the request succeeds.
func TestClientFollowsSameOriginRedirectsKeepingMethodAndBody(t *testing.T) {
	var methods []string
	srv := ssetest.New(t, func(w *ssetest.Writer) {
		methods = append(methods, w.R.Method+" "+w.R.URL.Path)
		if w.R.URL.Path != "/moved/v1/chat/completions" {
			http.Redirect(w.RW, w.R, "/moved/v1/chat/completions", http.StatusFound)
			return
		}
		w.StreamHeader()
		w.Content(ssetest.ChatContent("hi"))
		w.Done()
	})
	c := secretClient()
	c.Redirects = openai.RedirectSameOrigin
	out := sendRow(t, srv, c, chatRow())
	wantStatus(t, out, record.StatusSuccess)
	want := []string{"POST /v1/chat/completions", "POST /moved/v1/chat/completions"}
	if fmt.Sprint(methods) != fmt.Sprint(want) {
		t.Errorf("requests %v, want %v", methods, want)
	}
	bodies, headers := srv.Bodies(), srv.Headers()
	if len(bodies) != 2 || string(bodies[0]) != string(bodies[1]) || len(bodies[1]) == 0 {
		t.Errorf("the redirected request's body differs from the first: %q", bodies)
	}
	if headers[1].Get("X-Gateway-Key") != gatewaySecret {
		t.Error("the same-origin redirect lost the extra header")
	}
}

// TestPreflightReportsARedirect: a redirect from GET /v1/models fails the
// preflight with its status and the target's origin.
func TestPreflightReportsARedirect(t *testing.T) {
	srv := ssetest.New(t, func(w *ssetest.Writer) {
		http.Redirect(w.RW, w.R, "https://login.example.test:8443/sso?next=/v1/models", http.StatusFound)
	})
	c := secretClient()
	c.BaseURL = srv.URL
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	_, err := openai.CheckServedModel(ctx, c)
	if err == nil {
		t.Fatal("a redirected model list passed the preflight")
	}
	wantContains(t, "error", err.Error(), "GET /v1/models: redirect not followed: HTTP 302: redirect to https://login.example.test:8443 not followed")
	if strings.Contains(err.Error(), "sso") {
		t.Errorf("the error quotes the target's path: %v", err)
	}
}
