package main

import (
	"fmt"
	"math/rand/v2"
	"time"
)

// arrivalOffsets returns the arrival instants (offsets from the start) of
// an open loop at rate requests/s inside window: evenly spaced for
// "constant", exponential gaps drawn from seed for "poisson".
func arrivalOffsets(process string, rate float64, window time.Duration, seed uint64) ([]time.Duration, error) {
	if rate <= 0 {
		return nil, fmt.Errorf("-rate: want a positive rate, got %g", rate)
	}
	var out []time.Duration
	switch process {
	case "constant":
		for i := 0; ; i++ {
			at := time.Duration(float64(i) / rate * float64(time.Second))
			if at >= window {
				return out, nil
			}
			out = append(out, at)
		}
	case "poisson":
		rng := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
		at := time.Duration(0)
		for {
			at += time.Duration(rng.ExpFloat64() / rate * float64(time.Second))
			if at >= window {
				return out, nil
			}
			out = append(out, at)
		}
	}
	return nil, fmt.Errorf("-arrival: want constant or poisson, got %q", process)
}
