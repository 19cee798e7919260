package capacity

import (
	"fmt"
	"math"
)

// AutoRates is a sweep that finds its knee by itself: a coarse geometric
// series of rates from StartRPS, multiplied by Factor while the rate
// passes (divided by it while it does not), then bisection between the
// highest passing and the lowest non-passing rate until they are at most
// ResolutionRPS apart. Every run is kept. A rate that is inconclusive does
// not pass, so it bounds the search from above like a failure.
type AutoRates struct {
	// StartRPS is the first rate tried.
	StartRPS float64 `json:"start_rps"`
	// Factor is the ratio between successive coarse rates (default 2).
	Factor float64 `json:"factor"`
	// MaxRPS bounds the coarse series from above; a sweep that passes at
	// MaxRPS stops there and says the knee lies above.
	MaxRPS float64 `json:"max_rps"`
	// MinRPS bounds it from below (default StartRPS / 64).
	MinRPS float64 `json:"min_rps"`
	// ResolutionRPS is the bracket width at which bisection stops.
	ResolutionRPS float64 `json:"resolution_rps"`
	// BoundaryRuns is the budget of extra runs at each end of the final
	// bracket, replicated until the pooled attainment separates the ends at
	// the rule's confidence (0: none; see Bracket).
	BoundaryRuns int `json:"boundary_runs"`
	// Coarse and Bisected list the rates tried in each phase, in order;
	// Replicated the boundary replicates.
	Coarse     []float64 `json:"coarse_rps"`
	Bisected   []float64 `json:"bisected_rps"`
	Replicated []float64 `json:"replicated_rps,omitempty"`
	// Bracket is the final [highest passing, lowest non-passing] pair;
	// either is nil when the search never found one.
	Bracket [2]*float64 `json:"bracket_rps"`
}

// autoMaxRuns bounds the rates one search may try, whatever its settings.
const autoMaxRuns = 64

func (a *AutoRates) check() error {
	if a.Factor == 0 {
		a.Factor = 2
	}
	if a.MinRPS == 0 {
		a.MinRPS = a.StartRPS / 64
	}
	switch {
	case !(a.StartRPS > 0) || math.IsInf(a.StartRPS, 0):
		return fmt.Errorf("sweep: auto start rate must be a positive number of requests/s, got %g", a.StartRPS)
	case !(a.Factor > 1) || math.IsInf(a.Factor, 0):
		return fmt.Errorf("sweep: auto factor must be above 1, got %g", a.Factor)
	case !(a.MaxRPS >= a.StartRPS) || math.IsInf(a.MaxRPS, 0):
		return fmt.Errorf("sweep: auto max rate %g must be finite and at least the start rate %g", a.MaxRPS, a.StartRPS)
	case !(a.MinRPS > 0 && a.MinRPS <= a.StartRPS):
		return fmt.Errorf("sweep: auto min rate %g must be positive and at most the start rate %g", a.MinRPS, a.StartRPS)
	case !(a.ResolutionRPS > 0) || math.IsInf(a.ResolutionRPS, 0):
		return fmt.Errorf("sweep: resolution must be a positive number of requests/s, got %g", a.ResolutionRPS)
	case a.BoundaryRuns < 0:
		return fmt.Errorf("sweep: boundary runs must not be negative, got %d", a.BoundaryRuns)
	}
	return nil
}

// search drives run (which runs one rate and says whether it passed)
// through the coarse series and the bisection.
func (a *AutoRates) search(run func(rate float64) (bool, error)) error {
	a.Coarse, a.Bisected = []float64{}, []float64{}
	lo, hi, err := bracketSearch[float64]{
		start: a.StartRPS,
		up:    func(r float64) (float64, bool) { return min(r*a.Factor, a.MaxRPS), r < a.MaxRPS },
		down:  func(r float64) (float64, bool) { return max(r/a.Factor, a.MinRPS), r > a.MinRPS },
		mid: func(lo, hi float64) (float64, bool) {
			m := roundRate((lo + hi) / 2)
			return m, m > lo && m < hi
		},
		wide:    func(lo, hi float64) bool { return hi-lo > a.ResolutionRPS },
		maxRuns: autoMaxRuns,
	}.run(run, &a.Coarse, &a.Bisected)
	if err != nil {
		return err
	}
	a.Bracket = [2]*float64{lo, hi}
	return nil
}

// roundRate keeps a bisected rate to six significant digits, so that run
// directory names stay short.
func roundRate(v float64) float64 {
	if v == 0 {
		return 0
	}
	scale := math.Pow(10, 5-math.Floor(math.Log10(math.Abs(v))))
	return math.Round(v*scale) / scale
}
