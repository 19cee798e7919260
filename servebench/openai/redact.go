package openai

import (
	"net/http"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/servebench/servebench/internal/redact"
)

// redactor returns the Redactor of c's secrets: the API key, the base
// URL's userinfo (see redact.URLSecrets) and every value of Header. It is
// the one entry point through which every string the server sends passes
// before it is stored or printed (redactOutcome applies it to every text
// field of a record; a parser of another API calls redactOutcome, or this,
// on what it keeps).
func (c *Client) redactor() *redact.Redactor {
	secrets := c.secrets()
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
	return append(out, headerSecrets(c.Header)...)
}

// headerSecrets lists the values of h, each a secret (a gateway's key, a
// tenant's token).
func headerSecrets(h http.Header) []string {
	var out []string
	for _, values := range h {
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
