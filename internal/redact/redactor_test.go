package redact_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/servebench/servebench/internal/redact"
)

// TestRedactorPieces: every 8-byte or longer piece of a secret goes,
// wherever it starts; a 7-byte piece stays; a short secret goes only
// whole; overlapping and adjacent matches become one marker.
func TestRedactorPieces(t *testing.T) {
	r := redact.New("sk-0123456789abcdef", "pw12")
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
	var none *redact.Redactor
	if got := none.Redact("sk-0123456789abcdef"); got != "sk-0123456789abcdef" || !none.Empty() || !redact.New("").Empty() {
		t.Errorf("the nil or empty Redactor changed its input: %q", got)
	}
}

// TestStringsRedactsEveryArgument: a command line's secret goes from every
// argument, also inside "--flag=secret", and the input stays as it was.
func TestStringsRedactsEveryArgument(t *testing.T) {
	args := []string{"--api-key", "sk-1", "--api-key=sk-1", "--model", "m"}
	got := redact.New("sk-1").Strings(args)
	want := []string{"--api-key", redact.Marker, "--api-key=" + redact.Marker, "--model", "m"}
	if !slices.Equal(got, want) {
		t.Errorf("Strings = %q, want %q", got, want)
	}
	if args[1] != "sk-1" {
		t.Error("Strings changed its input")
	}
	if got := redact.New("").Strings(args); !slices.Equal(got, args) {
		t.Errorf("no secret changed the arguments: %q", got)
	}
	if redact.New("k").Strings(nil) != nil {
		t.Error("nil in, non-nil out")
	}
}

func TestURLSecretsHoldUserinfoAndQueryTokens(t *testing.T) {
	r := redact.New(redact.URLSecrets("http://scraper:hunter22@10.0.0.1:9400/metrics?token=QUERYTOKEN99&x=1")...)
	in := `Get "http://scraper:hunter22@10.0.0.1:9400/metrics?token=QUERYTOKEN99&x=1": dial tcp: refused (token QUERYTOKEN99)`
	want := `Get "http://[redacted]@10.0.0.1:9400/metrics?[redacted]": dial tcp: refused (token [redacted])`
	if got := r.Redact(in); got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
}

// BenchmarkRedactor redacts a 4 KiB response text holding no secret (the
// common case) against an API key and two header values.
func BenchmarkRedactor(b *testing.B) {
	r := redact.New("sk-0123456789abcdef0123456789abcdef", "gw-SECRET-0123456789", "tenant-blue")
	text := strings.Repeat("The pager stayed quiet through the night. ", 4096/42)
	b.SetBytes(int64(len(text)))
	b.ReportAllocs()
	for b.Loop() {
		if r.Redact(text) != text {
			b.Fatal("changed a text without secrets")
		}
	}
}
