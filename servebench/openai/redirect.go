package openai

import (
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"

	"github.com/servebench/servebench/servebench/record"
)

// RedirectPolicy says which redirects a Client follows.
type RedirectPolicy string

const (
	// RedirectNone follows no redirect (the zero value means the same): a
	// 3xx response ends the request as an http_error whose Reason is
	// ReasonRedirect and whose error names the target's origin only.
	RedirectNone RedirectPolicy = "none"
	// RedirectSameOrigin follows redirects whose target has the request's
	// scheme, host and port, sending the same method and body again (as
	// 307 and 308 ask), at most maxRedirects times; any other redirect is
	// treated as under RedirectNone.
	RedirectSameOrigin RedirectPolicy = "same-origin"
)

// ReasonRedirect is the Outcome.Reason of a redirect that was not
// followed.
const ReasonRedirect = "redirect"

// maxRedirects bounds the same-origin redirects of one request.
const maxRedirects = 10

// ParseRedirectPolicy reads a --follow-redirects value: "none" or
// "same-origin".
func ParseRedirectPolicy(s string) (RedirectPolicy, error) {
	switch p := RedirectPolicy(s); p {
	case RedirectNone, RedirectSameOrigin:
		return p, nil
	case "":
		return RedirectNone, nil
	}
	return "", fmt.Errorf("want none or same-origin, got %q", s)
}

// ValidateExtraHeader checks one extra header (Client.Header, --header):
// a valid name that is not one the Client sets itself, and a value without
// control characters. The error names the header, never its value. It is
// record.ValidateExtraHeader, which a workload row's headers pass too.
func ValidateExtraHeader(name, value string) error { return record.ValidateExtraHeader(name, value) }

// ValidateHeaders checks every extra header of c, and the names of its
// tenant and objective headers (valid names that c does not set itself).
func (c *Client) ValidateHeaders() error {
	for _, name := range []string{c.TenantHeader, c.ObjectiveHeader} {
		if name != "" {
			if err := ValidateExtraHeader(name, ""); err != nil {
				return err
			}
		}
	}
	for name, values := range c.Header {
		for _, v := range values {
			if err := ValidateExtraHeader(name, v); err != nil {
				return err
			}
		}
	}
	return nil
}

// setHeaders adds c's extra headers to h, then the key: the
// Authorization header, or for the messages endpoint x-api-key with
// anthropic-version (unless an extra header gives another version).
func (c *Client) setHeaders(h http.Header) {
	for name, values := range c.Header {
		key := http.CanonicalHeaderKey(name)
		if _, reserved := record.ReservedHeader(key); !reserved {
			h[key] = values
		}
	}
	if c.ResolvedEndpoint() == record.EndpointMessages {
		if _, given := h["Anthropic-Version"]; !given {
			h["Anthropic-Version"] = []string{anthropicVersion}
		}
		if c.APIKey != "" {
			h["X-Api-Key"] = []string{c.APIKey}
		}
		return
	}
	if c.APIKey != "" {
		h["Authorization"] = []string{"Bearer " + c.APIKey}
	}
}

// setRowHeaders adds req's own headers (record.Request.Headers) to h, a
// row's value replacing the Client's for the same name; a header the
// Client sets itself is never replaced (a workload read from a file has
// been checked for them already).
func setRowHeaders(h http.Header, req *record.Request) {
	for name, v := range req.Headers {
		if _, reserved := record.ReservedHeader(name); !reserved {
			h[http.CanonicalHeaderKey(name)] = []string{v}
		}
	}
}

// noRedirect makes an http.Client hand a 3xx response back unfollowed.
func noRedirect(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }

// send sends req (whose body, if any, is body) and follows the redirects
// c.Redirects allows, each with the same method, headers and body. A
// redirect it does not follow comes back as the response.
func (c *Client) send(req *http.Request, body payload) (*http.Response, error) {
	hc := *c.httpClient()
	hc.CheckRedirect = noRedirect
	for hops := 0; ; hops++ {
		resp, err := hc.Do(req)
		if err != nil || !isRedirect(resp.StatusCode) || c.Redirects != RedirectSameOrigin || hops == maxRedirects {
			return resp, err
		}
		target, ok := redirectTarget(req.URL, resp)
		if !ok || origin(target) != origin(req.URL) {
			return resp, nil
		}
		drain(resp.Body)
		_ = resp.Body.Close()
		next := req.Clone(req.Context())
		next.URL, next.Host = target, ""
		if body.size > 0 {
			next.Body, next.ContentLength = body.reader(), body.size
			next.GetBody = func() (io.ReadCloser, error) { return body.reader(), nil }
		}
		req = next
	}
}

// isRedirect reports whether status is a redirection (3xx).
func isRedirect(status int) bool { return status >= 300 && status <= 399 }

// redirectTarget resolves a redirect's Location against the request URL.
func redirectTarget(from *url.URL, resp *http.Response) (*url.URL, bool) {
	loc := resp.Header.Get("Location")
	if loc == "" {
		return nil, false
	}
	u, err := from.Parse(loc)
	return u, err == nil
}

// origin is u's scheme, host and port (the scheme's default port when none
// is written), never its userinfo, path or query.
func origin(u *url.URL) string {
	port := u.Port()
	if port == "" {
		switch strings.ToLower(u.Scheme) {
		case "https":
			port = "443"
		case "http":
			port = "80"
		}
	}
	return strings.ToLower(u.Scheme) + "://" + net.JoinHostPort(strings.ToLower(u.Hostname()), port)
}

// redirectMessage describes a redirect that was not followed: its status
// and its target's origin.
func redirectMessage(from *url.URL, resp *http.Response) string {
	target := "no Location"
	if u, ok := redirectTarget(from, resp); ok && u.Host != "" {
		target = "to " + origin(u)
	}
	return fmt.Sprintf("HTTP %d: redirect %s not followed (servebench follows no redirect; --follow-redirects same-origin follows those within the base URL's origin)", resp.StatusCode, target)
}

// ErrRedirect is wrapped by a preflight error for a redirect that was not
// followed.
var ErrRedirect = errors.New("redirect not followed")
