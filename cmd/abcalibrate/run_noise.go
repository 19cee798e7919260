package main

import (
	"math"
	"math/rand/v2"
)

// runNoiseFactor is the factor by which the run-to-run noise of
// -run-noise sigma multiplies the decode step of the start-th engine that
// repetition rep starts: exp(sigma·Z), with Z a standard normal drawn from
// a PCG seeded with (rep, start). It stands for what makes one run of a
// real engine differ from the next (clocks, placement, neighbours), which
// the in-process engine on a quiet machine hardly has. Being seeded by
// position, a rerun of a repetition with more rounds draws the same
// factors for the rounds it shares with the first run, so that the rerun
// continues those rounds as the advice's "N more rounds" means.
func runNoiseFactor(sigma float64, rep, start int) float64 {
	if sigma == 0 {
		return 1
	}
	z := rand.New(rand.NewPCG(uint64(rep), uint64(start))).NormFloat64()
	return math.Exp(sigma * z)
}
