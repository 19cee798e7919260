package redact_test

import (
	"testing"

	"github.com/servebench/servebench/internal/redact"
)

func TestURL(t *testing.T) {
	for in, want := range map[string]string{
		"http://user:PASSWORD@127.0.0.1:8000/v1": "http://[redacted]@127.0.0.1:8000/v1",
		"https://tok@example.test":               "https://[redacted]@example.test",
		"http://127.0.0.1:8000/v1?a=b@c":         "http://127.0.0.1:8000/v1?a=[redacted]",
		"http://h/metrics?token=T0K&x#frag":      "http://h/metrics?token=[redacted]&x#frag",
		"http://u:p@h:9400/metrics?key=abc":      "http://[redacted]@h:9400/metrics?key=[redacted]",
		"http://127.0.0.1:8000":                  "http://127.0.0.1:8000",
		"http://a:p%40ss@h/x":                    "http://[redacted]@h/x",
	} {
		if got := redact.URL(in); got != want {
			t.Errorf("URL(%q) = %q, want %q", in, got, want)
		}
	}
}
