package redact

import (
	"cmp"
	"net/url"
	"slices"
	"strings"
)

// URLSecretsIn removes rawURL's userinfo and query values from s in every
// form an error can carry them (see URLSecrets).
func URLSecretsIn(s, rawURL string) string {
	secrets := URLSecrets(rawURL)
	if len(secrets) == 0 {
		return s
	}
	return New(secrets...).Redact(s)
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

// URL returns rawURL with its userinfo (user name and password) and the
// value of each query parameter replaced by Marker, so that the URL can be
// written to a record, a report or a log. A URL without either comes back
// unchanged.
func URL(rawURL string) string {
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
		rest = Marker + rest[at:]
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
			pairs[i] = name + "=" + Marker
		}
	}
	return strings.Join(pairs, "&")
}
