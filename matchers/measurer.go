package matchers

// Measurer is implemented by the matchers that can state the value they
// judge, for a verdict table such as `servebench check`'s: the attainment
// with its counts, a percentile in milliseconds, an error rate, an SLO
// capacity. It judges actual as Match does and returns the same error.
type Measurer interface {
	Measured(actual any) (string, error)
}
