package matchers

import (
	"errors"
	"fmt"
)

// Quantified is implemented by the matchers whose objective bounds one
// number: an attainment, a percentile, a rate, an index. A contract's
// objective verdicts in report.json hold both numbers (package suites).
type Quantified interface {
	// Bound is the objective's bound and its unit: "fraction", "ms",
	// "req/s", "index", "tokens", "J/token", "J/request" or
	// "violations"; the unit is empty when the objective bounds no
	// single number (a breakdown value's objective that does not).
	Bound() (bound float64, unit string)
	// Value is the value judged, in Bound's unit, as Match reads it; the
	// error is Match's when there is none.
	Value(actual any) (float64, error)
}

// Bound is the attainment target.
func (m attainmentMatcher) Bound() (float64, string) { return m.target, "fraction" }

// Value is the attainment.
func (m attainmentMatcher) Value(actual any) (float64, error) {
	v, err := m.evaluate(actual)
	return v.attainment, err
}

// Bound is the lowest Wilson lower bound allowed.
func (m wilsonMatcher) Bound() (float64, string) { return m.target, "fraction" }

// Value is the Wilson lower bound.
func (m wilsonMatcher) Value(actual any) (float64, error) {
	v, err := m.evaluate(actual)
	return v.lower, err
}

// Bound is the percentile's bound in milliseconds.
func (m percentileMatcher) Bound() (float64, string) { return msOf(m.limit), "ms" }

// Value is the percentile in milliseconds.
func (m percentileMatcher) Value(actual any) (float64, error) {
	v, err := m.evaluate(actual)
	return v.value, err
}

// Bound is the highest error rate allowed.
func (m errorRateMatcher) Bound() (float64, string) { return m.limit, "fraction" }

// Value is the error rate.
func (m errorRateMatcher) Value(actual any) (float64, error) {
	v, err := m.evaluate(actual)
	return v.rate, err
}

// Bound is the lowest qualified request rate allowed.
func (m qualifiedRateMatcher) Bound() (float64, string) { return m.target, "req/s" }

// Value is the qualified request rate.
func (m qualifiedRateMatcher) Value(actual any) (float64, error) {
	v, err := m.evaluate(actual)
	return v.rate, err
}

// Bound is the lowest prefix-cache hit rate allowed.
func (m prefixCacheMatcher) Bound() (float64, string) { return m.target, "fraction" }

// Value is the prefix-cache hit rate.
func (m prefixCacheMatcher) Value(actual any) (float64, error) {
	v, err := m.evaluate(actual)
	return v.rate, err
}

// Bound is the lowest prefix reuse achieved allowed.
func (m prefixReuseMatcher) Bound() (float64, string) { return m.target, "fraction" }

// Value is the prefix reuse achieved.
func (m prefixReuseMatcher) Value(actual any) (float64, error) {
	pc, _, err := m.evaluate(actual)
	if err != nil {
		return 0, err
	}
	return *pc.ReuseAchieved, nil
}

// Bound is the lowest session attainment allowed.
func (m sessionAttainmentMatcher) Bound() (float64, string) { return m.target, "fraction" }

// Value is the session attainment.
func (m sessionAttainmentMatcher) Value(actual any) (float64, error) {
	_, a, err := m.evaluate(actual)
	return a, err
}

// Bound is the lowest session Wilson lower bound allowed.
func (m sessionWilsonMatcher) Bound() (float64, string) { return m.bound, "fraction" }

// Value is the session Wilson lower bound.
func (m sessionWilsonMatcher) Value(actual any) (float64, error) {
	lower, _, err := m.evaluate(actual)
	return lower, err
}

// Bound is the lowest Jain's index allowed.
func (m jainMatcher) Bound() (float64, string) { return m.bound, "index" }

// Value is Jain's index.
func (m jainMatcher) Value(actual any) (float64, error) {
	_, j, err := m.evaluate(actual)
	return j, err
}

// Bound is the lowest mean acceptance length (in tokens) or acceptance
// rate allowed.
func (m acceptanceMatcher) Bound() (float64, string) {
	if m.length {
		return m.target, "tokens"
	}
	return m.target, "fraction"
}

// Value is the mean acceptance length or the acceptance rate.
func (m acceptanceMatcher) Value(actual any) (float64, error) {
	_, v, err := m.evaluate(actual)
	return v, err
}

// Bound is the highest energy allowed per unit of work.
func (m energyMatcher) Bound() (float64, string) {
	if m.perToken {
		return m.limit, "J/token"
	}
	return m.limit, "J/request"
}

// Value is the energy per unit of work.
func (m energyMatcher) Value(actual any) (float64, error) {
	v, err := m.evaluate(actual)
	switch {
	case err != nil:
		return 0, err
	case v.value == nil:
		return 0, fmt.Errorf("%s: no %s to divide the energy by", m.who(), m.unit())
	}
	return *v.value, nil
}

// Bound is the longest recovery allowed, in milliseconds.
func (m recoveryMatcher) Bound() (float64, string) { return msOf(m.within), "ms" }

// Value is the recovery time in milliseconds.
func (m recoveryMatcher) Value(actual any) (float64, error) {
	r, err := m.evaluate(actual)
	switch {
	case err != nil:
		return 0, err
	case r.RecoveryMS == nil:
		return 0, errors.New("HaveRecoveredWithin: " + r.Recovery.Reason)
	}
	return *r.RecoveryMS, nil
}

// Bound is the number of violations allowed: none.
func (m shedOrderMatcher) Bound() (float64, string) { return 0, "violations" }

// Value counts the windows that shed a critical request while admitting a
// sheddable one.
func (m shedOrderMatcher) Value(actual any) (float64, error) {
	s, err := m.evaluate(actual)
	if err != nil {
		return 0, err
	}
	return float64(s.Violations), nil
}

// Bound is the applied matcher's; the unit is empty when it bounds no
// single number.
func (m breakdownMatcher) Bound() (float64, string) {
	if q, ok := m.inner.(Quantified); ok {
		return q.Bound()
	}
	return 0, ""
}

// Value is the applied matcher's value on the selected value's requests.
func (m breakdownMatcher) Value(actual any) (float64, error) {
	q, ok := m.inner.(Quantified)
	if !ok {
		return 0, errors.New(m.prefix() + "the objective bounds no single number")
	}
	view, err := breakdownView(actual, m.dimension, m.value, false)
	if err != nil {
		return 0, err
	}
	return q.Value(view)
}
