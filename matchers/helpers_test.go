package matchers_test

import "math"

// nan is a NaN to feed matchers that must reject it.
func nan() float64 { return math.NaN() }
