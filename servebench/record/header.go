package record

import (
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
)

// DefaultTenantHeader is the request header whose value names a request's
// tenant when no other is declared: the fairness ID that llm-d and the
// Gateway API Inference Extension route and share capacity by.
const DefaultTenantHeader = "x-llm-d-inference-fairness-id"

// DefaultObjectiveHeader is the request header whose value names a
// request's objective (its priority band) when no other is declared, as
// llm-d and the Gateway API Inference Extension read it.
const DefaultObjectiveHeader = "x-llm-d-inference-objective"

// reservedHeaders are the headers the client sets itself (or its transport
// owns), which an extra header (a --header, a workload row's headers) may
// not replace, each with what to use instead.
var reservedHeaders = map[string]string{
	"Authorization":     "give the key with --api-key-env (Client.APIKey)",
	"X-Api-Key":         "give the key with --api-key-env (Client.APIKey); the messages endpoint sends it so",
	"Content-Type":      "servebench sends application/json",
	"Accept":            "servebench asks for text/event-stream or application/json",
	"X-Request-Id":      "servebench derives it from the run ID and the request's ID",
	"Host":              "the host is the base URL's",
	"Content-Length":    "the transport sets it",
	"Transfer-Encoding": "the transport sets it",
}

// ReservedHeader reports whether the client sets the header name itself
// (case does not matter), and if so what to use instead.
func ReservedHeader(name string) (instead string, reserved bool) {
	instead, reserved = reservedHeaders[http.CanonicalHeaderKey(name)]
	return instead, reserved
}

// ValidateHeader checks one HTTP header the client's transport adds: a
// valid field name, and a value without control characters (a CR or LF
// would split the request). The error names the header, never its value.
func ValidateHeader(name, value string) error {
	if name == "" {
		return errors.New("header: empty name")
	}
	for _, c := range name {
		if !isTokenChar(c) {
			return fmt.Errorf("header %q: the name holds %q, which is not allowed in a header name", name, c)
		}
	}
	if i := strings.IndexFunc(value, func(c rune) bool { return c < 0x20 && c != '\t' || c == 0x7f }); i >= 0 {
		return fmt.Errorf("header %q: the value holds a control character (CR, LF or another) at byte %d", name, i)
	}
	return nil
}

// ValidateExtraHeader checks one extra header (a --header, a workload
// row's headers): a valid name that is not one the client sets itself,
// and a value without control characters. The error names the header,
// never its value.
func ValidateExtraHeader(name, value string) error {
	if err := ValidateHeader(name, value); err != nil {
		return err
	}
	if instead, ok := ReservedHeader(name); ok {
		return fmt.Errorf("header %q: servebench sets this header itself and does not let it be replaced (%s)", name, instead)
	}
	return nil
}

// checkRowHeaders checks a workload row's headers, in name order: each a
// valid extra header, and no name given twice in another case.
func checkRowHeaders(h map[string]string) error {
	names := make([]string, 0, len(h))
	for name := range h {
		names = append(names, name)
	}
	slices.Sort(names)
	seen := make(map[string]string, len(names))
	for _, name := range names {
		if err := ValidateExtraHeader(name, h[name]); err != nil {
			return fmt.Errorf("headers: %w", err)
		}
		key := http.CanonicalHeaderKey(name)
		if prev, dup := seen[key]; dup {
			return fmt.Errorf("headers: %q and %q name the same header", prev, name)
		}
		seen[key] = name
	}
	return nil
}

// CheckHeaders checks the row's headers (see Request.Headers): each a
// valid header that servebench does not set itself, no name twice. The
// error starts with the field, "headers: ", and names the header, never
// its value.
func (r *Request) CheckHeaders() error { return checkRowHeaders(r.Headers) }

// HeaderValue returns the value of the row's header name (case does not
// matter) and whether the row gives it.
func (r *Request) HeaderValue(name string) (string, bool) {
	if len(r.Headers) == 0 {
		return "", false
	}
	if v, ok := r.Headers[name]; ok {
		return v, true
	}
	for k, v := range r.Headers {
		if strings.EqualFold(k, name) {
			return v, true
		}
	}
	return "", false
}

// isTokenChar reports whether c may appear in a header name (RFC 9110's
// tchar).
func isTokenChar(c rune) bool {
	switch {
	case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9':
		return true
	}
	return strings.ContainsRune("!#$%&'*+-.^_`|~", c)
}
