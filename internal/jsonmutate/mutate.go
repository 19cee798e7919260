// Package jsonmutate makes near misses of JSON lines, for the tests that
// hold a fast decoder to the strict one: each mutation replaces, deletes
// or inserts a few bytes drawn from JSON's own punctuation, digits and
// letters, so that most mutants are almost valid.
package jsonmutate

import "math/rand/v2"

// alphabet is what a mutation inserts or writes over a byte.
var alphabet = []byte(`{}[]",:0123456789.-+eEnultrfas x\`)

// Each calls each with n mutants of lines, each a copy of a line picked at
// random with one to three bytes replaced, deleted or inserted. The
// mutants are the same for the same seed.
func Each(seed uint64, lines [][]byte, n int, each func(line []byte)) {
	rng := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	for range n {
		line := append([]byte(nil), lines[rng.IntN(len(lines))]...)
		for range 1 + rng.IntN(3) {
			if len(line) == 0 {
				break
			}
			j := rng.IntN(len(line))
			switch rng.IntN(3) {
			case 0:
				line[j] = alphabet[rng.IntN(len(alphabet))]
			case 1:
				line = append(line[:j], line[j+1:]...)
			default:
				line = append(line[:j], append([]byte{alphabet[rng.IntN(len(alphabet))]}, line[j:]...)...)
			}
		}
		each(line)
	}
}
