package openai

import (
	"net/http"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/servebench/servebench/internal/redact"
	"github.com/servebench/servebench/servebench/record"
)

// redactor returns the Redactor of c's secrets: the API key, the base
// URL's userinfo (see redact.URLSecrets) and every value of Header. It is
// the one entry point through which every string the server sends passes
// before it is stored or printed (redactOutcome applies it to every text
// field of a record; a parser of another API calls redactOutcome, or this,
// on what it keeps).
func (c *Client) redactor() *redact.Redactor { return cachedRedactor(c.secrets()) }

// redactorFor returns the Redactor of c's secrets and of the values of
// req's own headers (record.Request.Headers), those of the tenant and
// objective headers left out: what a record of req must never hold.
func (c *Client) redactorFor(req *record.Request) *redact.Redactor {
	if req == nil || len(req.Headers) == 0 {
		return c.redactor()
	}
	secrets := c.secrets()
	var row []string
	for name, v := range req.Headers {
		if v = strings.TrimSpace(v); v != "" && !c.recordedHeader(name) {
			row = append(row, v)
		}
	}
	if len(row) == 0 {
		return cachedRedactor(secrets)
	}
	slices.Sort(row)
	return cachedRedactor(append(secrets, row...))
}

// cachedRedactor returns the Redactor of secrets, built once per set.
func cachedRedactor(secrets []string) *redact.Redactor {
	if len(secrets) == 0 {
		return nil
	}
	key := strings.Join(secrets, "\x00")
	if r, ok := redactorCache.Load(key); ok {
		return r.(*redact.Redactor)
	}
	r := redact.New(secrets...)
	if redactorsCached.Add(1) <= maxCachedRedactors {
		redactorCache.Store(key, r)
	}
	return r
}

// redactorCache holds the Redactor of each set of secrets a Client has
// had, so that a record's redaction does not rebuild it; at most
// maxCachedRedactors of them (a process that makes more Clients rebuilds
// the others' on each record).
var (
	redactorCache   sync.Map
	redactorsCached atomic.Int64
)

const maxCachedRedactors = 256

// secrets lists the strings c must never write.
func (c *Client) secrets() []string {
	var out []string
	if c.APIKey != "" {
		out = append(out, c.APIKey)
	}
	out = append(out, redact.URLSecrets(c.BaseURL)...)
	return append(out, c.headerSecrets(c.Header)...)
}

// headerSecrets lists the values of h, each a secret (a gateway's key, a
// tenant's token), but those of the tenant and objective headers, which
// records keep.
func (c *Client) headerSecrets(h http.Header) []string {
	var out []string
	for name, values := range h {
		if c.recordedHeader(name) {
			continue
		}
		for _, v := range values {
			if v = strings.TrimSpace(v); v != "" {
				out = append(out, v)
			}
		}
	}
	slices.Sort(out)
	return out
}

// redactMessage removes the client's secrets from an error message (see
// redactor).
func (c *Client) redactMessage(s string) string {
	return c.redactor().Redact(s)
}

// ResolvedTenantHeader is the tenant header's name: TenantHeader, or
// record.DefaultTenantHeader.
func (c *Client) ResolvedTenantHeader() string {
	if c.TenantHeader != "" {
		return c.TenantHeader
	}
	return record.DefaultTenantHeader
}

// ResolvedObjectiveHeader is the objective header's name: ObjectiveHeader,
// or record.DefaultObjectiveHeader.
func (c *Client) ResolvedObjectiveHeader() string {
	if c.ObjectiveHeader != "" {
		return c.ObjectiveHeader
	}
	return record.DefaultObjectiveHeader
}

// recordedHeader reports whether name is the tenant or the objective
// header, whose values records keep rather than redact.
func (c *Client) recordedHeader(name string) bool {
	return strings.EqualFold(name, c.ResolvedTenantHeader()) || strings.EqualFold(name, c.ResolvedObjectiveHeader())
}

// sentValue is the value of header name that req is sent with: its row's
// own, else the Client's; "" when neither gives it.
func (c *Client) sentValue(req *record.Request, name string) string {
	if v, ok := req.HeaderValue(name); ok {
		return v
	}
	if len(c.Header) == 0 {
		return ""
	}
	return c.Header.Get(name)
}
