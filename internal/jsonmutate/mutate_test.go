package jsonmutate

import (
	"bytes"
	"testing"
)

func TestEachMutatesCopiesReproducibly(t *testing.T) {
	lines := [][]byte{[]byte(`{"id":"a","n":12}`), []byte(`[1,2,3]`)}
	orig := [][]byte{bytes.Clone(lines[0]), bytes.Clone(lines[1])}
	var first, second [][]byte
	Each(7, lines, 200, func(l []byte) { first = append(first, bytes.Clone(l)) })
	Each(7, lines, 200, func(l []byte) { second = append(second, l) })
	if len(first) != 200 || len(second) != 200 {
		t.Fatalf("got %d and %d mutants, want 200", len(first), len(second))
	}
	changed := 0
	for i := range first {
		if !bytes.Equal(first[i], second[i]) {
			t.Fatalf("mutant %d differs between two runs of the same seed: %s, %s", i, first[i], second[i])
		}
		if !bytes.Equal(first[i], orig[0]) && !bytes.Equal(first[i], orig[1]) {
			changed++
		}
		if d := len(first[i]) - min(len(orig[0]), len(orig[1])); d < -3 || len(first[i]) > max(len(orig[0]), len(orig[1]))+3 {
			t.Fatalf("mutant %d changed more than three bytes: %s", i, first[i])
		}
	}
	if !bytes.Equal(lines[0], orig[0]) || !bytes.Equal(lines[1], orig[1]) {
		t.Fatal("Each changed the lines it was given")
	}
	// A mutation can write a byte over itself, or insert and delete the
	// same byte; nearly all mutants still differ from their line.
	if changed < 180 {
		t.Fatalf("only %d of 200 mutants differ from their line", changed)
	}
}
