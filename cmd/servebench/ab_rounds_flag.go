package main

import (
	"fmt"
	"strconv"

	"github.com/servebench/servebench/servebench/ab"
)

// roundsFlag is --rounds: "auto" (ab.RoundsAuto) or a fixed number of
// rounds, at least 1.
type roundsFlag struct{ n int }

func (r *roundsFlag) String() string {
	if r == nil || r.n == ab.RoundsAuto {
		return "auto"
	}
	return strconv.Itoa(r.n)
}

func (r *roundsFlag) Set(s string) error {
	if s == "auto" {
		r.n = ab.RoundsAuto
		return nil
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 1 {
		return fmt.Errorf("want auto or a whole number of rounds of at least 1, got %q", s)
	}
	r.n = n
	return nil
}

// auto reports whether the rounds run until decided.
func (r roundsFlag) auto() bool { return r.n == ab.RoundsAuto }
