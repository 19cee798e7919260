package openai_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/servebench/servebench/internal/ssetest"
	"github.com/servebench/servebench/servebench/record"
)

const secretKey = "sk-SUPERSECRET-0123456789abcdef"

// TestClientRedactsTheKeyBeforeCuttingTheMessage: a 401 whose message puts
// the API key across the record's 512-byte cut must not leave the key's
// first bytes behind (redaction first, then the cut), wherever the key
// falls.
func TestClientRedactsTheKeyBeforeCuttingTheMessage(t *testing.T) {
	for _, pad := range []int{480, 490, 500, 505, 511, 600} {
		t.Run(fmt.Sprint(pad), func(t *testing.T) {
			msg := strings.Repeat("x", pad) + " Incorrect API key: Bearer " + secretKey + " was refused"
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "application/json")
				w.WriteHeader(http.StatusUnauthorized)
				_ = json.NewEncoder(w).Encode(map[string]any{"error": map[string]any{"message": msg}})
			}))
			defer srv.Close()
			c := chatClient()
			c.BaseURL, c.APIKey = srv.URL, secretKey
			out := &record.Outcome{ID: "r1", Attempt: 1}
			c.Do(context.Background(), time.Now(), chatRow(), "run/r1/1", out)
			wantStatus(t, out, record.StatusHTTPError)
			if strings.Contains(out.Error, "sk-SUPER") {
				t.Fatalf("part of the key is in the record's error: %q", out.Error[max(0, len(out.Error)-80):])
			}
			if len(out.Error) > 512+len("…(truncated)") {
				t.Errorf("error is %d bytes, over the 512-byte cut", len(out.Error))
			}
		})
	}
}

// TestClientNeverWritesTheBaseURLsUserinfo: an error that quotes the URL
// (Go's own, and a server's echo of it) and the Client's description leave
// out the user name and password.
func TestClientNeverWritesTheBaseURLsUserinfo(t *testing.T) {
	c := chatClient()
	c.BaseURL = ssetest.ClosedPortURL(t)
	c.BaseURL = strings.Replace(c.BaseURL, "http://", "http://operator:PASSWORD123@", 1)
	out := &record.Outcome{ID: "r1", Attempt: 1}
	c.Do(context.Background(), time.Now(), chatRow(), "run/r1/1", out)
	wantStatus(t, out, record.StatusStreamError)
	for _, secret := range []string{"PASSWORD123", "operator"} {
		if strings.Contains(out.Error, secret) {
			t.Errorf("error %q contains %q", out.Error, secret)
		}
		if s := c.String(); strings.Contains(s, secret) {
			t.Errorf("String() %q contains %q", s, secret)
		}
	}
	wantContains(t, "error", out.Error, "[redacted]@127.0.0.1")

	echo := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusBadRequest)
		_, _ = fmt.Fprintf(w, "bad upstream http://operator:PASSWORD123@%s (password PASSWORD123)", r.Host)
	}))
	defer echo.Close()
	c.BaseURL = strings.Replace(echo.URL, "http://", "http://operator:PASSWORD123@", 1)
	out = &record.Outcome{ID: "r1", Attempt: 1}
	c.Do(context.Background(), time.Now(), chatRow(), "run/r1/1", out)
	wantStatus(t, out, record.StatusHTTPError)
	if strings.Contains(out.Error, "PASSWORD123") || strings.Contains(out.Error, "operator") {
		t.Errorf("error %q gives the userinfo away", out.Error)
	}
}
