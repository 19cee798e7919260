package main

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"strings"

	"github.com/servebench/servebench/servebench"
)

// headerFlags collects repeatable --header NAME=VALUE flags.
type headerFlags []string

func (h *headerFlags) String() string { return fmt.Sprintf("%d headers", len(*h)) }

// Set validates one NAME=VALUE. The value is never echoed in an error.
func (h *headerFlags) Set(v string) error {
	name, value, ok := strings.Cut(v, "=")
	if !ok {
		return fmt.Errorf("want NAME=VALUE")
	}
	if err := servebench.ValidateHeader(strings.TrimSpace(name), value); err != nil {
		return err
	}
	*h = append(*h, v)
	return nil
}

// header returns the collected headers.
func (h headerFlags) header() http.Header {
	out := http.Header{}
	for _, v := range h {
		name, value, _ := strings.Cut(v, "=")
		out.Add(strings.TrimSpace(name), value)
	}
	return out
}

// headerTransport adds fixed headers (a gateway's, say) to every request.
// The Client never sees them, so they are never written to a record,
// report or log; and an error response that echoes a value (a gateway's
// "invalid key X") has it replaced before the Client reads the message.
type headerTransport struct {
	base   http.RoundTripper
	header http.Header
}

// RoundTrip sends a copy of req with the extra headers set.
func (t *headerTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	r := req.Clone(req.Context())
	for name, values := range t.header {
		r.Header[http.CanonicalHeaderKey(name)] = values
	}
	resp, err := t.base.RoundTrip(r)
	if err != nil || resp.StatusCode < 400 {
		return resp, err
	}
	body, readErr := io.ReadAll(io.LimitReader(resp.Body, errorBodyBytes))
	_ = resp.Body.Close()
	for _, values := range t.header {
		for _, v := range values {
			if v != "" {
				body = bytes.ReplaceAll(body, []byte(v), []byte(redactedHeader))
			}
		}
	}
	resp.Body = io.NopCloser(io.MultiReader(bytes.NewReader(body), errReader{readErr}))
	resp.ContentLength = -1
	resp.Header.Del("Content-Length")
	return resp, nil
}

// errorBodyBytes is the most of an error response read to redact it, and
// redactedHeader what a header value is replaced with.
const (
	errorBodyBytes = 1 << 20
	redactedHeader = "[redacted]"
)

// errReader returns err (io.EOF when nil) from every Read, so that a body
// cut short while it was read for redaction still fails as it would have.
type errReader struct{ err error }

func (e errReader) Read([]byte) (int, error) {
	if e.err != nil {
		return 0, e.err
	}
	return 0, io.EOF
}

// clientWithHeaders is an HTTP client with servebench's transport that
// adds h to every request.
func clientWithHeaders(h http.Header) *http.Client {
	return &http.Client{Transport: &headerTransport{base: servebench.NewTransport(), header: h}}
}
