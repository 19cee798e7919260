package score

import "math"

// exactSum adds float64 values without rounding error: it keeps the running
// total as a short list of non-overlapping partial sums (Shewchuk's
// algorithm, as Python's math.fsum does) and rounds once, when asked. Its
// value does not depend on the order of the additions, so a population's
// mean is the same whether the values came sorted from memory or in file
// order from a streamed pass.
type exactSum struct {
	partials []float64
}

// add adds x exactly.
func (s *exactSum) add(x float64) {
	i := 0
	for _, y := range s.partials {
		if math.Abs(x) < math.Abs(y) {
			x, y = y, x
		}
		hi := x + y
		lo := y - (hi - x)
		if lo != 0 {
			s.partials[i] = lo
			i++
		}
		x = hi
	}
	s.partials = append(s.partials[:i], x)
}

// addProduct adds x·k exactly: the product is split into its rounded value
// and the rounding error (which a fused multiply-add gives exactly).
func (s *exactSum) addProduct(x float64, k uint64) {
	c := float64(k) // exact below 2^53
	p := x * c
	s.add(p)
	if e := math.FMA(x, c, -p); e != 0 {
		s.add(e)
	}
}

// value is the sum correctly rounded to the nearest float64 (ties to even).
func (s *exactSum) value() float64 {
	p := s.partials
	n := len(p)
	if n == 0 {
		return 0
	}
	n--
	hi := p[n]
	lo := 0.0
	for n > 0 {
		x := hi
		n--
		y := p[n]
		hi = x + y
		yr := hi - x
		lo = y - yr
		if lo != 0 {
			break
		}
	}
	// Round half to even across the remaining partials: when the rounding
	// of hi + lo was a tie, the sign of the next partial breaks it.
	if n > 0 && ((lo < 0 && p[n-1] < 0) || (lo > 0 && p[n-1] > 0)) {
		y := lo * 2
		x := hi + y
		if y == x-hi {
			hi = x
		}
	}
	return hi
}
