package compare

import (
	"fmt"
	"strconv"
)

// Side names one side of an A/B comparison.
type Side string

// The two sides.
const (
	Baseline  Side = "baseline"
	Candidate Side = "candidate"
)

// RunOrder is the order an A/B qualification ran its runs in, and where
// each side's runs fell in it.
type RunOrder struct {
	// Pattern names the order, "ABBA": rounds alternate AB, BA, BA, AB
	// and repeat, so over every four rounds each side holds the same
	// positions on average.
	Pattern string `json:"pattern"`
	// Runs lists every run in the order it ran.
	Runs []RunPosition `json:"runs"`
	// MeanPosition is the mean position of each side's runs; equal means
	// drift and warm-up reach both sides alike.
	MeanPosition struct {
		Baseline  float64 `json:"baseline"`
		Candidate float64 `json:"candidate"`
	} `json:"mean_position"`
}

// RunPosition is one run's place in the order.
type RunPosition struct {
	// Position counts from 1 over all the runs of the qualification.
	Position int  `json:"position"`
	Side     Side `json:"side"`
	Round    int  `json:"round"`
}

// String names the run as "baseline/round-1".
func (p RunPosition) String() string { return string(p.Side) + "/round-" + strconv.Itoa(p.Round) }

// ABBAOrder is the balanced order of rounds runs of each side: round K
// runs the baseline first when K mod 4 is 1 or 0, the candidate first
// when it is 2 or 3 (AB, BA, BA, AB, ...). With an even number of rounds
// both sides hold the same mean position.
func ABBAOrder(rounds int) RunOrder {
	o := RunOrder{Pattern: "ABBA"}
	var sum [2]int
	for k := 1; k <= rounds; k++ {
		sides := []Side{Baseline, Candidate}
		if k%4 == 2 || k%4 == 3 {
			sides = []Side{Candidate, Baseline}
		}
		for _, s := range sides {
			pos := len(o.Runs) + 1
			o.Runs = append(o.Runs, RunPosition{Position: pos, Side: s, Round: k})
			if s == Baseline {
				sum[0] += pos
			} else {
				sum[1] += pos
			}
		}
	}
	if rounds > 0 {
		o.MeanPosition.Baseline = float64(sum[0]) / float64(rounds)
		o.MeanPosition.Candidate = float64(sum[1]) / float64(rounds)
	}
	return o
}

// Describe is one line on the order: the runs and each side's mean
// position.
func (o RunOrder) Describe() string {
	seq := ""
	for _, r := range o.Runs {
		if r.Side == Baseline {
			seq += "A"
		} else {
			seq += "B"
		}
	}
	return fmt.Sprintf("%s (%s; A baseline, B candidate): mean position baseline %.4g, candidate %.4g",
		seq, o.Pattern, o.MeanPosition.Baseline, o.MeanPosition.Candidate)
}
