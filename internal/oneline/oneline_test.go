package oneline

import (
	"strings"
	"testing"
)

func TestShortenJoinsLinesAndCutsAtACharacter(t *testing.T) {
	if got := Shorten("bad\n  request\tbody"); got != "bad request body" {
		t.Fatalf("got %q", got)
	}
	// 159 ASCII bytes then a 3-byte character straddling the limit: the cut
	// falls before the character, never inside it.
	s := strings.Repeat("a", Limit-1) + "€" + "tail"
	if got, want := Shorten(s), strings.Repeat("a", Limit-1)+"…"; got != want {
		t.Fatalf("got %q, want %q", got, want)
	}
	exact := strings.Repeat("b", Limit)
	if got := Shorten(exact); got != exact {
		t.Fatalf("a message of exactly %d bytes was cut: %q", Limit, got)
	}
}

func TestShortenToCutsAtTheGivenLimit(t *testing.T) {
	if got, want := ShortenTo("key  gw-1\nis not allowed", 9), "key gw-1 …"; got != want {
		t.Fatalf("ShortenTo: %q, want %q", got, want)
	}
	if got := ShortenTo("short", 9); got != "short" {
		t.Fatalf("ShortenTo: %q, want it unchanged", got)
	}
}
