package main

import (
	"fmt"
	"net/http"
	"strings"

	"github.com/servebench/servebench/servebench/openai"
)

// headerFlags collects repeatable --header flags, each NAME=VALUE or, as
// curl, vegeta and hey write it, "Name: value". A bad one is remembered,
// not returned from Set, because the flag package would quote the whole
// argument, value included, in its message: check reports it by the
// header's name only.
type headerFlags struct {
	header http.Header
	err    error
}

func (h *headerFlags) String() string {
	if h == nil {
		return "0 headers"
	}
	return fmt.Sprintf("%d headers", len(h.header))
}

// Set reads one header. Its value is never echoed in an error.
func (h *headerFlags) Set(v string) error {
	name, value, err := splitHeader(v)
	if err == nil {
		err = openai.ValidateExtraHeader(name, value)
	}
	if err != nil {
		if h.err == nil {
			h.err = fmt.Errorf("--header: %w", err)
		}
		return nil
	}
	if h.header == nil {
		h.header = http.Header{}
	}
	h.header.Add(name, value)
	return nil
}

// splitHeader splits "Name: value" (curl's form) or NAME=VALUE at the
// first ':' or '=', whichever comes first; the name is trimmed, and so is
// the space after a colon.
func splitHeader(v string) (name, value string, err error) {
	i := strings.IndexAny(v, ":=")
	if i < 0 {
		return "", "", fmt.Errorf("want \"Name: value\" or NAME=VALUE (a header of %d bytes has neither ':' nor '=')", len(v))
	}
	name, value = strings.TrimSpace(v[:i]), v[i+1:]
	if v[i] == ':' {
		value = strings.TrimLeft(value, " \t")
	}
	return name, value, nil
}

// check returns the first bad --header.
func (h *headerFlags) check() error { return h.err }
