// Package oneline fits a message from a server or a log into one line of a
// report or an error: whitespace runs become one space, and a long message
// is cut at a character boundary with an ellipsis.
package oneline

import (
	"strings"
	"unicode/utf8"
)

// Limit is the number of bytes a shortened message keeps.
const Limit = 160

// Shorten puts s on one line and cuts it to Limit bytes without splitting a
// character; a cut message ends in "…".
func Shorten(s string) string { return ShortenTo(s, Limit) }

// ShortenTo is Shorten with the limit of limit bytes.
func ShortenTo(s string, limit int) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) <= limit {
		return s
	}
	cut := limit
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}
