package matchers

import (
	"fmt"

	"github.com/servebench/servebench/servebench/report"

	"github.com/onsi/gomega/types"
)

// HavePrefixReuseAchievedAtLeast succeeds when the engine served at least
// fraction of the prompt tokens the workload makes reusable from its prefix
// cache: report.PrefixCache.ReuseAchieved, the cached_tokens of the
// successful requests that reported them over the reusable_prompt_tokens
// their workload rows declared (expected_cached_tokens). The failure
// message gives both token counts and the requests they cover.
//
//	Expect(report).To(matchers.HavePrefixReuseAchievedAtLeast(0.8))
//
// A fraction outside [0, 1], a report with no offered requests and a
// report without the figure (no request reported cached_tokens, or a
// reporting request's row declared no reusable_prompt_tokens, or the rows
// declared none reusable) are errors.
func HavePrefixReuseAchievedAtLeast(fraction float64) types.GomegaMatcher {
	return prefixReuseMatcher{target: fraction}
}

// prefixReuseMatcher holds only its expectation; see
// HavePrefixReuseAchievedAtLeast.
type prefixReuseMatcher struct{ target float64 }

// evaluate judges actual; it keeps nothing, so every method may call it.
func (m prefixReuseMatcher) evaluate(actual any) (*report.PrefixCache, bool, error) {
	const who = "HavePrefixReuseAchievedAtLeast"
	if err := fractionError(who, "a reuse target", m.target); err != nil {
		return nil, false, err
	}
	r, err := reportFrom(who, actual)
	if err != nil {
		return nil, false, err
	}
	pc := r.PrefixCache
	if pc == nil || pc.ReuseAchieved == nil {
		reporting := 0
		if pc != nil {
			reporting = pc.RequestsReporting
		}
		return nil, false, fmt.Errorf("%s cannot judge a report without expected prefix reuse: %d of %d successful requests reported cached_tokens, "+
			"and the figure needs every one of them to come from a workload row that declares reusable_prompt_tokens, with some tokens reusable "+
			"(the shared-prefix generator writes it)", who, reporting, r.ProtocolSuccesses)
	}
	return pc, *pc.ReuseAchieved >= m.target, nil
}

// Match reports whether the reuse achieved reaches the target.
func (m prefixReuseMatcher) Match(actual any) (bool, error) {
	_, pass, err := m.evaluate(actual)
	return pass, err
}

// FailureMessage gives the reuse achieved, its tokens and the target.
func (m prefixReuseMatcher) FailureMessage(actual any) string {
	return m.message(actual, "to be at least")
}

// NegatedFailureMessage explains why the reuse reached the target.
func (m prefixReuseMatcher) NegatedFailureMessage(actual any) string {
	return m.message(actual, "not to be at least")
}

// message states the reuse achieved with the tokens it divides.
func (m prefixReuseMatcher) message(actual any, relation string) string {
	pc, _, err := m.evaluate(actual)
	if err != nil {
		return err.Error()
	}
	return fmt.Sprintf("Expected prefix reuse achieved %.3f %s %.3f\nthe engine cached %d of the %d prompt tokens the workload makes reusable, over %d requests reporting cached_tokens",
		*pc.ReuseAchieved, relation, m.target, pc.CachedTokens, *pc.ExpectedCachedTokens, pc.RequestsReporting)
}

// String names the objective, for MeetSLOs and spec reports.
func (m prefixReuseMatcher) String() string {
	return fmt.Sprintf("prefix reuse achieved >= %.3f", m.target)
}
