// Package redact removes secrets from what servebench writes or prints:
// a Redactor replaces every secret, and every piece of MinPiece or more
// bytes of one, with Marker; URL and URLSecrets keep a URL's credentials
// out of records, reports and logs. The protocol client, the engine
// metrics and GPU telemetry scrapers and the engine containers all redact
// through it, so one marker stands for a secret everywhere.
package redact

import (
	"cmp"
	"slices"
	"strings"
)

// Marker is what a secret, or a piece of one, is replaced with wherever
// servebench would write or print it.
const Marker = "[redacted]"

// MinPiece is the length, in bytes, of the shortest piece of a
// secret that a Redactor recognises on its own: any MinPiece or more
// consecutive bytes of a secret are redacted, so that a server that echoes
// a truncated secret, or a secret cut by a message's bound, gives none of
// it away. A secret shorter than MinPiece is redacted only whole.
const MinPiece = 8

// Redactor removes a fixed set of secrets from text: every occurrence of a
// secret, and every piece of MinPiece or more bytes of one, wherever
// it starts. Redact a string only once it is whole (a stream's text after
// its last event, an error body after it is read), and before it is cut
// to a bound: a secret split across reads is then recognised like any
// other. The nil Redactor, and one without secrets, returns text
// unchanged. A Redactor is safe for concurrent use.
//
// Every string that comes from a server (error bodies and events, chunk
// fields, model lists, metrics scrapes) passes through one before it is
// stored or printed; an openai.Client builds its own from its API key,
// base URL and headers.
type Redactor struct {
	// short holds the secrets shorter than MinPiece, longest first.
	short []string
	// pieces holds every MinPiece-byte window of the longer secrets,
	// each read as a little-endian integer (see window).
	pieces map[uint64]struct{}
	// heads has bit b set when some window of pieces starts with the two
	// bytes b (little-endian): a cheap test before the map's.
	heads *[1 << 16 / 64]uint64
}

// New returns a Redactor for secrets; empty strings are ignored.
func New(secrets ...string) *Redactor {
	r := &Redactor{pieces: map[uint64]struct{}{}}
	for _, s := range secrets {
		switch {
		case s == "":
		case len(s) < MinPiece:
			if !slices.Contains(r.short, s) {
				r.short = append(r.short, s)
			}
		default:
			for i := 0; i+MinPiece <= len(s); i++ {
				w := window(s, i)
				r.pieces[w] = struct{}{}
				if r.heads == nil {
					r.heads = new([1 << 16 / 64]uint64)
				}
				r.heads[uint16(w)/64] |= 1 << (uint16(w) % 64)
			}
		}
	}
	slices.SortStableFunc(r.short, func(a, b string) int { return cmp.Compare(len(b), len(a)) })
	return r
}

// Empty reports whether r redacts nothing.
func (r *Redactor) Empty() bool { return r == nil || len(r.short) == 0 && len(r.pieces) == 0 }

// Redact returns s with every secret, and every piece of MinPiece or
// more bytes of a secret, replaced by Marker (overlapping or adjacent
// matches become one Redacted).
func (r *Redactor) Redact(s string) string {
	if r.Empty() || s == "" {
		return s
	}
	covered := r.cover(s)
	if covered == nil {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); {
		if !covered[i] {
			b.WriteByte(s[i])
			i++
			continue
		}
		b.WriteString(Marker)
		for i < len(s) && covered[i] {
			i++
		}
	}
	return b.String()
}

// Strings returns a copy of ss with each string redacted (a command line's
// arguments, also inside "--flag=secret"); nil for nil.
func (r *Redactor) Strings(ss []string) []string {
	if ss == nil {
		return nil
	}
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = r.Redact(s)
	}
	return out
}

// cover marks the bytes of s that belong to a match; nil when none does.
func (r *Redactor) cover(s string) []bool {
	var covered []bool
	mark := func(from, to int) {
		if covered == nil {
			covered = make([]bool, len(s))
		}
		for i := from; i < to; i++ {
			covered[i] = true
		}
	}
	if len(r.pieces) > 0 {
		for i := 0; i+MinPiece <= len(s); i++ {
			head := uint16(s[i]) | uint16(s[i+1])<<8
			if r.heads[head/64]&(1<<(head%64)) == 0 {
				continue
			}
			if _, ok := r.pieces[window(s, i)]; ok {
				mark(i, i+MinPiece)
			}
		}
	}
	for _, secret := range r.short {
		for from := 0; ; {
			j := strings.Index(s[from:], secret)
			if j < 0 {
				break
			}
			mark(from+j, from+j+len(secret))
			from += j + 1
		}
	}
	return covered
}

// window reads the MinPiece (8) bytes of s from i as one integer.
func window(s string, i int) uint64 {
	_ = s[i+7]
	return uint64(s[i]) | uint64(s[i+1])<<8 | uint64(s[i+2])<<16 | uint64(s[i+3])<<24 |
		uint64(s[i+4])<<32 | uint64(s[i+5])<<40 | uint64(s[i+6])<<48 | uint64(s[i+7])<<56
}
