package openai_test

import (
	"strings"
	"testing"

	"github.com/servebench/servebench/servebench/openai"
)

// TestRedactorPieces: every 8-byte or longer piece of a secret goes,
// wherever it starts; a 7-byte piece stays; a short secret goes only
// whole; overlapping and adjacent matches become one marker.
func TestRedactorPieces(t *testing.T) {
	r := openai.NewRedactor("sk-0123456789abcdef", "pw12")
	for in, want := range map[string]string{
		"key sk-0123456789abcdef ok":  "key [redacted] ok",
		"cut sk-0123456789a":          "cut [redacted]",
		"middle 456789ab here":        "middle [redacted] here",
		"seven sk-0123 stays":         "seven sk-0123 stays",
		"tail 9abcdef stays":          "tail 9abcdef stays",
		"short pw12 and pw1":          "short [redacted] and pw1",
		"twice 01234567sk-0123456789": "twice [redacted]",
		"":                            "",
		"nothing here":                "nothing here",
	} {
		if got := r.Redact(in); got != want {
			t.Errorf("Redact(%q) = %q, want %q", in, got, want)
		}
	}
	var none *openai.Redactor
	if got := none.Redact("sk-0123456789abcdef"); got != "sk-0123456789abcdef" || !none.Empty() || !openai.NewRedactor("").Empty() {
		t.Errorf("the nil or empty Redactor changed its input: %q", got)
	}
}

func TestURLSecretsHoldUserinfoAndQueryTokens(t *testing.T) {
	r := openai.NewRedactor(openai.URLSecrets("http://scraper:hunter22@10.0.0.1:9400/metrics?token=QUERYTOKEN99&x=1")...)
	in := `Get "http://scraper:hunter22@10.0.0.1:9400/metrics?token=QUERYTOKEN99&x=1": dial tcp: refused (token QUERYTOKEN99)`
	want := `Get "http://[redacted]@10.0.0.1:9400/metrics?[redacted]": dial tcp: refused (token [redacted])`
	if got := r.Redact(in); got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
}

// BenchmarkRedactor redacts a 4 KiB response text holding no secret (the
// common case) against an API key and two header values.
func BenchmarkRedactor(b *testing.B) {
	r := openai.NewRedactor("sk-0123456789abcdef0123456789abcdef", "gw-SECRET-0123456789", "tenant-blue")
	text := strings.Repeat("The pager stayed quiet through the night. ", 4096/42)
	b.SetBytes(int64(len(text)))
	b.ReportAllocs()
	for b.Loop() {
		if r.Redact(text) != text {
			b.Fatal("changed a text without secrets")
		}
	}
}
