package servebench

import (
	"cmp"
	"net/url"
	"slices"
	"strings"
)

// redactedUserinfo replaces a base URL's userinfo wherever it would be
// written.
const redactedUserinfo = "[redacted]"

// redactMessage removes the client's secrets from an error message: the
// API key, and the base URL's userinfo in every form an error can carry it
// (as written, escaped, Go's "user:***" form, and the password or user name
// alone when they are long enough not to be a common word's fragment).
func (c *Client) redactMessage(s string) string {
	return redactURLUserinfo(redact(s, c.APIKey), c.BaseURL)
}

// redactURLUserinfo removes rawURL's userinfo from s in every form an error
// can carry it (see redactMessage).
func redactURLUserinfo(s, rawURL string) string {
	for _, secret := range userinfoSecrets(rawURL) {
		if strings.Contains(s, secret) {
			s = strings.ReplaceAll(s, secret, redactedUserinfo)
		}
	}
	return s
}

// minRedactedPart is the shortest user name or password redacted on its
// own; shorter ones are redacted only as part of the whole userinfo.
const minRedactedPart = 4

// userinfoSecrets lists the strings that give away rawURL's userinfo,
// longest first, so that a longer form is replaced before its parts; nil
// when the URL has none.
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
	written := rest[:at]
	secrets := []string{written}
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
	var out []string
	for _, s := range secrets {
		if s != "" && !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	slices.SortStableFunc(out, func(a, b string) int { return cmp.Compare(len(b), len(a)) })
	return out
}

// RedactURL returns rawURL with its userinfo (user name and password)
// replaced by "[redacted]", so that the URL can be written to a record, a
// report or a log. A URL without userinfo comes back unchanged.
func RedactURL(rawURL string) string {
	secrets := userinfoSecrets(rawURL)
	if len(secrets) == 0 {
		return rawURL
	}
	scheme := strings.Index(rawURL, "://") + 3
	rest := rawURL[scheme:]
	hostEnd := len(rest)
	if end := strings.IndexAny(rest, "/?#"); end >= 0 {
		hostEnd = end
	}
	at := strings.LastIndex(rest[:hostEnd], "@")
	return rawURL[:scheme] + redactedUserinfo + rest[at:]
}
