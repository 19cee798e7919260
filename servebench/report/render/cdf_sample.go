package render

import (
	"math"
	"slices"

	"github.com/servebench/servebench/internal/plotsvg"
	"gonum.org/v1/plot/plotter"
)

// cdfExactLimit is how many values a CDF keeps exactly; past it the values
// are counted in logarithmic bins, so that a chart's memory does not grow
// with the run. (A variable so that tests can reach the binned form with
// few values.)
var cdfExactLimit = 1 << 16

// cdfBinBits is the mantissa bits a bin keeps: a bin spans 2^-10 of an
// octave, so a value read from it (its lower edge) is below the exact
// order statistic by less than 0.1 % of it.
const cdfBinBits = 10

// cdfSample collects the values of one CDF in memory bounded by
// cdfExactLimit values and by the bins the values' range spans, never by
// their number. Its count, minimum, maximum and the count at or below the
// bound are exact in either form.
type cdfSample struct {
	n         int
	min, max  float64
	exact     []float64        // every value while n <= cdfExactLimit
	bins      map[int64]uint64 // past it: count per bin key
	bound     float64
	hasBound  bool
	atOrBelow int
}

// newCDFSample makes an empty sample that counts the values at or below
// bound when bound is set.
func newCDFSample(bound *cdfBoundSpec) *cdfSample {
	s := &cdfSample{}
	if bound != nil {
		s.bound, s.hasBound = bound.ms, true
	}
	return s
}

// add takes one finite value.
func (s *cdfSample) add(v float64) {
	if s.n == 0 || v < s.min {
		s.min = v
	}
	if s.n == 0 || v > s.max {
		s.max = v
	}
	s.n++
	if s.hasBound && v <= s.bound {
		s.atOrBelow++
	}
	if s.bins == nil && len(s.exact) < cdfExactLimit {
		s.exact = append(s.exact, v)
		return
	}
	if s.bins == nil {
		s.bins = map[int64]uint64{}
		for _, x := range s.exact {
			s.bins[cdfBinKey(x)]++
		}
		s.exact = nil
	}
	s.bins[cdfBinKey(v)]++
}

// binned says whether the sample went past cdfExactLimit values.
func (s *cdfSample) binned() bool { return s.bins != nil }

// cdfBinKey orders values by bin: the sign, exponent and leading
// cdfBinBits mantissa bits of a non-negative value, negated (and offset)
// for a negative one, so that keys sort as the values do.
func cdfBinKey(v float64) int64 {
	if v < 0 {
		return -int64(math.Float64bits(-v)>>(52-cdfBinBits)) - 1
	}
	return int64(math.Float64bits(v) >> (52 - cdfBinBits))
}

// cdfBinFloor is the smallest value of a bin (its edge nearest zero).
func cdfBinFloor(key int64) float64 {
	if key < 0 {
		return -math.Float64frombits(uint64(-(key + 1)) << (52 - cdfBinBits))
	}
	return math.Float64frombits(uint64(key) << (52 - cdfBinBits))
}

// steps is the empirical CDF as plotsvg.CDFSteps draws it: exact while
// the sample holds every value; past that the same evenly spaced order
// statistics, each read as its bin's floor (within 0.1 % of the exact
// value, never below the minimum), the last as the exact maximum.
func (s *cdfSample) steps(maxSteps int) plotter.XYs {
	if !s.binned() {
		xs := slices.Clone(s.exact)
		slices.Sort(xs)
		return plotsvg.CDFSteps(xs, maxSteps)
	}
	keys := make([]int64, 0, len(s.bins))
	for k := range s.bins {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	// at is the value of the 0-based order statistic i; the ranks asked
	// for ascend, so one walk through the bins answers them all.
	k, through := 0, s.bins[keys[0]]
	at := func(i int) float64 {
		if i == s.n-1 {
			return s.max
		}
		for uint64(i) >= through {
			k++
			through += s.bins[keys[k]]
		}
		return max(cdfBinFloor(keys[k]), s.min)
	}
	xy := make(plotter.XYs, 0, min(s.n, maxSteps)+1)
	xy = append(xy, plotter.XY{X: s.min, Y: 0})
	add := func(i int) { xy = append(xy, plotter.XY{X: at(i), Y: float64(i+1) / float64(s.n)}) }
	if s.n <= maxSteps || maxSteps < 2 {
		for i := range s.n {
			add(i)
		}
		return xy
	}
	for j := range maxSteps {
		add(int(math.Round(float64(j) * float64(s.n-1) / float64(maxSteps-1))))
	}
	return xy
}
