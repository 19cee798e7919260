package openai

import (
	"cmp"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
)

// Redactor returns the Redactor of c's secrets: the API key, the base
// URL's userinfo (see URLSecrets) and every value of Header. It is the one
// entry point through which every string the server sends passes before
// it is stored or printed (redactOutcome applies it to every text field of
// a record; a parser of another API calls redactOutcome, or this, on what
// it keeps).
func (c *Client) Redactor() *Redactor {
	secrets := c.secrets()
	if len(secrets) == 0 {
		return nil
	}
	key := strings.Join(secrets, "\x00")
	if r, ok := redactorCache.Load(key); ok {
		return r.(*Redactor)
	}
	r := NewRedactor(secrets...)
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
	out = append(out, URLSecrets(c.BaseURL)...)
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
// Redactor).
func (c *Client) redactMessage(s string) string {
	return c.Redactor().Redact(s)
}

// RedactURLSecrets removes rawURL's userinfo and query values from s in every
// form an error can carry them (see URLSecrets).
func RedactURLSecrets(s, rawURL string) string {
	secrets := URLSecrets(rawURL)
	if len(secrets) == 0 {
		return s
	}
	return NewRedactor(secrets...).Redact(s)
}

// minRedactedPart is the shortest user name, password or query value
// redacted on its own; shorter ones are redacted only as part of the whole
// userinfo or query.
const minRedactedPart = 4

// URLSecrets lists the strings that give away rawURL's credentials: its
// userinfo as written, escaped and in Go's "user:***" form, the password
// and the user name alone when they are at least 4 bytes long; and its
// query (an access token in "?token=…") as written and each value of it of
// at least 4 bytes, plain and escaped. nil when the URL has neither.
func URLSecrets(rawURL string) []string {
	secrets := userinfoSecrets(rawURL)
	if _, query, ok := strings.Cut(rawURL, "?"); ok {
		query, _, _ = strings.Cut(query, "#")
		secrets = append(secrets, query)
		if values, err := url.ParseQuery(query); err == nil {
			for _, vs := range values {
				for _, v := range vs {
					if len(v) >= minRedactedPart {
						secrets = append(secrets, v, url.QueryEscape(v))
					}
				}
			}
		}
	}
	return dedupeLongestFirst(secrets)
}

// userinfoSecrets lists the strings that give away rawURL's userinfo (see
// URLSecrets).
func userinfoSecrets(rawURL string) []string {
	scheme := strings.Index(rawURL, "://")
	if scheme < 0 {
		return nil
	}
	rest := rawURL[scheme+3:]
	if end := strings.IndexAny(rest, "/?#"); end >= 0 {
		rest = rest[:end]
	}
	at := strings.LastIndex(rest, "@")
	if at < 0 {
		return nil
	}
	secrets := []string{rest[:at]}
	if u, err := url.Parse(rawURL); err == nil && u.User != nil {
		name := u.User.Username()
		secrets = append(secrets, u.User.String(), name+":***")
		if pw, ok := u.User.Password(); ok && len(pw) >= minRedactedPart {
			secrets = append(secrets, pw, url.QueryEscape(pw))
		}
		if len(name) >= minRedactedPart {
			secrets = append(secrets, name)
		}
	}
	return secrets
}

// dedupeLongestFirst drops empty and repeated strings, longest first.
func dedupeLongestFirst(secrets []string) []string {
	var out []string
	for _, s := range secrets {
		if s != "" && !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	slices.SortStableFunc(out, func(a, b string) int { return cmp.Compare(len(b), len(a)) })
	return out
}

// RedactURL returns rawURL with its userinfo (user name and password) and
// the value of each query parameter replaced by "[redacted]", so that the
// URL can be written to a record, a report or a log. A URL without either
// comes back unchanged.
func RedactURL(rawURL string) string {
	scheme := strings.Index(rawURL, "://")
	if scheme < 0 {
		return rawURL
	}
	scheme += 3
	rest, fragment, hasFragment := strings.Cut(rawURL[scheme:], "#")
	rest, query, hasQuery := strings.Cut(rest, "?")
	hostEnd := len(rest)
	if end := strings.IndexByte(rest, '/'); end >= 0 {
		hostEnd = end
	}
	if at := strings.LastIndex(rest[:hostEnd], "@"); at >= 0 {
		rest = Redacted + rest[at:]
	}
	out := rawURL[:scheme] + rest
	if hasQuery {
		out += "?" + redactQuery(query)
	}
	if hasFragment {
		out += "#" + fragment
	}
	return out
}

// redactQuery replaces the value of each name=value pair of a raw query.
func redactQuery(query string) string {
	if query == "" {
		return query
	}
	pairs := strings.Split(query, "&")
	for i, p := range pairs {
		if name, _, ok := strings.Cut(p, "="); ok {
			pairs[i] = name + "=" + Redacted
		}
	}
	return strings.Join(pairs, "&")
}
