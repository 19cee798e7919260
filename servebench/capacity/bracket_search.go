package capacity

// bracketSearch is the climb-then-bisect that both automatic searches
// (AutoRates over offered rates, AutoUsers over closed-loop users) share:
// from start it steps up while a point passes and down while it does not,
// until a pass and a non-pass bracket the knee or a bound stops it; then it
// bisects while the bracket is still too wide. At most maxRuns points are
// tried in all.
type bracketSearch[T int | float64] struct {
	start T
	// up and down give the next point of the climb; more is false at the
	// bound, where the climb stops.
	up, down func(T) (next T, more bool)
	// mid gives a point strictly inside (lo, hi); ok is false when there is
	// none at the search's resolution.
	mid func(lo, hi T) (m T, ok bool)
	// wide says whether the bracket is still wider than the resolution.
	wide    func(lo, hi T) bool
	maxRuns int
}

// run drives pass (which runs one point and says whether it passed)
// through both phases, listing the points of each in climbed and bisected,
// and returns the bracket [highest pass, lowest non-pass]; either is nil
// when the search never found one.
func (s bracketSearch[T]) run(pass func(T) (bool, error), climbed, bisected *[]T) (lo, hi *T, err error) {
	tried := 0
	try := func(p T, phase *[]T) (bool, error) {
		tried++
		*phase = append(*phase, p)
		return pass(p)
	}
	for p := s.start; tried < s.maxRuns; {
		ok, err := try(p, climbed)
		if err != nil {
			return lo, hi, err
		}
		next, more := s.down(p)
		if ok {
			lo = new(p)
			next, more = s.up(p)
		} else {
			hi = new(p)
		}
		if lo != nil && hi != nil || !more {
			break
		}
		p = next
	}
	for lo != nil && hi != nil && s.wide(*lo, *hi) && tried < s.maxRuns {
		m, ok := s.mid(*lo, *hi)
		if !ok {
			break
		}
		passed, err := try(m, bisected)
		if err != nil {
			return lo, hi, err
		}
		if passed {
			lo = new(m)
		} else {
			hi = new(m)
		}
	}
	return lo, hi, nil
}
