package main

import (
	"fmt"
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
// report or log.
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
	return t.base.RoundTrip(r)
}

// clientWithHeaders is an HTTP client with servebench's transport that
// adds h to every request.
func clientWithHeaders(h http.Header) *http.Client {
	return &http.Client{Transport: &headerTransport{base: servebench.NewTransport(), header: h}}
}
