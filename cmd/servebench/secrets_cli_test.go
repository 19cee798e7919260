package main

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
)

// TestHeaderFlagMessagesNameTheHeaderOnly: a malformed --header, one with
// a control character and one that would replace a header servebench
// sets are refused with exit 1 before any request, and no message quotes
// the value.
func TestHeaderFlagMessagesNameTheHeaderOnly(t *testing.T) {
	f := startFront(t, false, nil)
	const secret = "SECRETVALUE-0042"
	for _, tc := range []struct{ header, want string }{
		{"X-Key " + secret, `--header: want "Name: value" or NAME=VALUE (a header of 22 bytes has neither ':' nor '=')`},
		{"X-Key: " + secret + "\x01", `--header: header "X-Key": the value holds a control character (CR, LF or another) at byte 16`},
		{"Authorization: Bearer " + secret, `--header: header "Authorization": servebench sets this header itself and does not let it be replaced (give the key with --api-key-env (Client.APIKey))`},
		{"content-type=text/plain", `header "content-type": servebench sets this header itself`},
		{"x-api-key: " + secret, `--header: header "x-api-key": servebench sets this header itself and does not let it be replaced (give the key with --api-key-env (Client.APIKey); the messages endpoint sends it so)`},
		{"Accept: */*", `header "Accept": servebench sets this header itself`},
		{"X-Request-Id=" + secret, `header "X-Request-Id": servebench sets this header itself`},
	} {
		out := filepath.Join(t.TempDir(), "run")
		code, stdout, stderr := runCLI(runArgs(t, f.url, "--output", out, "--header", tc.header)...)
		if code != 1 || !strings.Contains(stderr, tc.want) {
			t.Errorf("%q: exit %d, stderr %q; want 1 and %q", tc.header, code, stderr, tc.want)
		}
		if strings.Contains(stdout+stderr, secret) {
			t.Errorf("%q: the value is quoted: %q", tc.header, stderr)
		}
	}
	if n := f.generate.Load() + f.models.Load(); n != 0 {
		t.Fatalf("%d requests reached the engine; want none", n)
	}
}

// TestHeaderFlagTakesCurlsForm: "Name: value" sends the header with the
// value after the colon and its space.
func TestHeaderFlagTakesCurlsForm(t *testing.T) {
	f := startFront(t, false, nil)
	code, _, stderr := runCLI(runArgs(t, f.url, "--output", filepath.Join(t.TempDir(), "run"),
		"--header", "X-Gateway-Key: gw-SECRET-4242", "--header", "X-Route:a=b")...)
	if code != 0 {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(f.gotHeader) == 0 {
		t.Fatal("no request reached the engine")
	}
	for i, h := range f.gotHeader {
		if h.Get("X-Gateway-Key") != "gw-SECRET-4242" || h.Get("X-Route") != "a=b" {
			t.Fatalf("request %d headers %v", i, h)
		}
	}
}

// TestMetricsURLTokensNeverReachAnOutput: a --metrics-url whose userinfo
// and query token cannot be scraped leaves neither in report.json,
// report.html or the console.
func TestMetricsURLTokensNeverReachAnOutput(t *testing.T) {
	f := startFront(t, false, nil)
	out := filepath.Join(t.TempDir(), "run")
	code, stdout, stderr := runCLI(runArgs(t, f.url, "--output", out, "--format", "json",
		"--metrics-url", "http://scraper:PASSWORD-77@127.0.0.1:1/metrics?token=QUERYTOKEN-1234")...)
	if code != 0 {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	if !strings.Contains(stdout, "metrics?token=[redacted]") {
		t.Errorf("the report does not show the redacted metrics URL:\n%.2000s", stdout)
	}
	texts := []string{stdout, stderr}
	for _, name := range []string{"report.json", "report.html", "manifest.json"} {
		b, err := os.ReadFile(filepath.Join(out, name))
		if err != nil {
			t.Fatal(err)
		}
		texts = append(texts, string(b))
	}
	for i, text := range texts {
		for _, secret := range []string{"QUERYTOKEN", "PASSWORD-77", "scraper"} {
			if strings.Contains(text, secret) {
				t.Errorf("output %d holds %q", i, secret)
			}
		}
	}
}

// TestModelNameWithAControlCharacterIsRefused: a --model that would write
// an escape sequence to the console is refused before any request.
func TestModelNameWithAControlCharacterIsRefused(t *testing.T) {
	f := startFront(t, false, nil)
	args := runArgs(t, f.url, "--output", filepath.Join(t.TempDir(), "run"))
	for i, a := range args {
		if a == "simengine-tiny" {
			args[i] = "tiny\x1b[2J"
		}
	}
	code, _, stderr := runCLI(args...)
	if code != 1 || !strings.Contains(stderr, "servebench run: --model: holds the control character U+001B at byte 4") {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	if n := f.generate.Load() + f.models.Load(); n != 0 {
		t.Fatalf("%d requests reached the engine; want none", n)
	}
}

// TestRunRecordsARedirectAsAnHTTPError: an engine that redirects every
// generation to another origin gets no request there; each record is an
// http_error with reason redirect, and the run still scores. A bad
// --follow-redirects value is refused.
func TestRunRecordsARedirectAsAnHTTPError(t *testing.T) {
	var elsewhere atomic.Int64
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { elsewhere.Add(1) }))
	t.Cleanup(other.Close)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, other.URL+"/steal?key=1", http.StatusTemporaryRedirect)
	}))
	t.Cleanup(srv.Close)
	out := filepath.Join(t.TempDir(), "run")
	args := append(runArgs(t, srv.URL, "--output", out, "--skip-preflight", "--header", "X-Gateway-Key: gw-SECRET-4242"), "--model", "m")
	code, _, stderr := runCLI(args...)
	if code != 0 {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	if n := elsewhere.Load(); n != 0 {
		t.Fatalf("the other origin received %d requests", n)
	}
	b, err := os.ReadFile(filepath.Join(out, "outcomes.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	want := `"status":"http_error"`
	for _, l := range lines {
		if !strings.Contains(l, want) || !strings.Contains(l, `"reason":"redirect"`) || !strings.Contains(l, "HTTP 307: redirect to "+other.URL+" not followed") || strings.Contains(l, "steal") {
			t.Fatalf("record %s", l)
		}
	}
	if len(lines) != 4 {
		t.Fatalf("%d records, want 4", len(lines))
	}
	code, _, stderr = runCLI(append(runArgs(t, srv.URL, "--output", filepath.Join(t.TempDir(), "r2")), "--follow-redirects", "all")...)
	if code != 1 || !strings.Contains(stderr, `--follow-redirects: want none or same-origin, got "all"`) {
		t.Fatalf("--follow-redirects all: exit %d, stderr %q", code, stderr)
	}
}
