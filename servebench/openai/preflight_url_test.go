package openai

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

func TestValidateBaseURLNeverShowsAPassword(t *testing.T) {
	for _, tc := range []struct{ raw, want string }{
		{"http://user:PASSWORD@127.0.0.1:8000", `base URL "http://[redacted]@127.0.0.1:8000": user information (user:password@) is refused`},
		{"ftp://user:PASSWORD@host/", `base URL "ftp://[redacted]@host/": user information`},
		{"http://user:PASS WORD@host:bad/", `base URL "http://[redacted]@host:bad/": not a URL`},
		{"http://u:PASSWORD@host/?q=1", `base URL "http://[redacted]@host/?q=[redacted]": user information`},
		{"not a url", `base URL "not a url": want an http:// or https:// URL`},
		{"http://host/#frag", `base URL "http://host/#frag": no fragment allowed`},
		{"https://:8000", `base URL "https://:8000": no host`},
	} {
		err := ValidateBaseURL(tc.raw)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: error %v, want %q", tc.raw, err, tc.want)
		}
		if err != nil && strings.Contains(err.Error(), "PASS") {
			t.Errorf("%q: the error shows the password: %v", tc.raw, err)
		}
	}
	for _, ok := range []string{"http://127.0.0.1:8000", "https://gateway.example/v1/", "http://[::1]:8000"} {
		if err := ValidateBaseURL(ok); err != nil {
			t.Errorf("%q: %v", ok, err)
		}
	}
}

func TestCheckServedModelMatchesOllamasLatestTag(t *testing.T) {
	// An engine that lists its models as Ollama does and generates nothing.
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/v1/models" {
			t.Errorf("unexpected %s %s", r.Method, r.URL.Path)
			http.NotFound(w, r)
			return
		}
		_, _ = w.Write([]byte(`{"object":"list","data":[{"id":"tiny:latest"},{"id":"qwen3:0.6b"}]}`))
	}))
	defer srv.Close()
	for _, tc := range []struct{ model, err string }{
		{"tiny", ""},
		{"tiny:latest", ""},
		{"qwen3:0.6b", ""},
		{"qwen3", `model "qwen3" is not served here; served: qwen3:0.6b, tiny:latest`},
		{"tiny:1b", `model "tiny:1b" is not served here; served: qwen3:0.6b, tiny:latest`},
	} {
		_, err := CheckServedModel(context.Background(), &Client{BaseURL: srv.URL, Model: tc.model})
		got := ""
		if err != nil {
			got = err.Error()
		}
		if got != tc.err {
			t.Errorf("%q: error %q, want %q", tc.model, got, tc.err)
		}
	}
}
