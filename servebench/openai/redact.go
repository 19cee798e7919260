package openai

import (
	"cmp"
	"slices"
	"strings"
)

// Redacted is what a secret, or a piece of one, is replaced with wherever
// servebench would write or print it.
const Redacted = "[redacted]"

// MinSecretPiece is the length, in bytes, of the shortest piece of a
// secret that a Redactor recognises on its own: any MinSecretPiece or more
// consecutive bytes of a secret are redacted, so that a server that echoes
// a truncated secret, or a secret cut by a message's bound, gives none of
// it away. A secret shorter than MinSecretPiece is redacted only whole.
const MinSecretPiece = 8

// Redactor removes a fixed set of secrets from text: every occurrence of a
// secret, and every piece of MinSecretPiece or more bytes of one, wherever
// it starts. Redact a string only once it is whole (a stream's text after
// its last event, an error body after it is read), and before it is cut
// to a bound: a secret split across reads is then recognised like any
// other. The nil Redactor, and one without secrets, returns text
// unchanged. A Redactor is safe for concurrent use.
//
// Every string that comes from a server (error bodies and events, chunk
// fields, model lists, metrics scrapes) passes through one before it is
// stored or printed; a Client's is Client.Redactor.
type Redactor struct {
	// short holds the secrets shorter than MinSecretPiece, longest first.
	short []string
	// pieces holds every MinSecretPiece-byte window of the longer secrets,
	// each read as a little-endian integer (see window).
	pieces map[uint64]struct{}
	// heads has bit b set when some window of pieces starts with the two
	// bytes b (little-endian): a cheap test before the map's.
	heads *[1 << 16 / 64]uint64
}

// NewRedactor returns a Redactor for secrets; empty strings are ignored.
func NewRedactor(secrets ...string) *Redactor {
	r := &Redactor{pieces: map[uint64]struct{}{}}
	for _, s := range secrets {
		switch {
		case s == "":
		case len(s) < MinSecretPiece:
			if !slices.Contains(r.short, s) {
				r.short = append(r.short, s)
			}
		default:
			for i := 0; i+MinSecretPiece <= len(s); i++ {
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

// Redact returns s with every secret, and every piece of MinSecretPiece or
// more bytes of a secret, replaced by Redacted (overlapping or adjacent
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
		b.WriteString(Redacted)
		for i < len(s) && covered[i] {
			i++
		}
	}
	return b.String()
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
		for i := 0; i+MinSecretPiece <= len(s); i++ {
			head := uint16(s[i]) | uint16(s[i+1])<<8
			if r.heads[head/64]&(1<<(head%64)) == 0 {
				continue
			}
			if _, ok := r.pieces[window(s, i)]; ok {
				mark(i, i+MinSecretPiece)
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

// window reads the MinSecretPiece (8) bytes of s from i as one integer.
func window(s string, i int) uint64 {
	_ = s[i+7]
	return uint64(s[i]) | uint64(s[i+1])<<8 | uint64(s[i+2])<<16 | uint64(s[i+3])<<24 |
		uint64(s[i+4])<<32 | uint64(s[i+5])<<40 | uint64(s[i+6])<<48 | uint64(s[i+7])<<56
}
