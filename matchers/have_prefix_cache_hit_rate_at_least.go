package matchers

import (
	"fmt"

	"github.com/servebench/servebench/servebench/report"

	"github.com/onsi/gomega/types"
)

// HavePrefixCacheHitRateAtLeast succeeds when the report's measured
// prefix-cache hit rate is at least fraction. The rate judged is the
// requests' own, cached over prompt tokens summed over the successful
// requests that reported cached_tokens (report.PrefixCache.HitRate);
// when no request reported it, the engine's, from its counters scraped
// over the measurement (report.PrefixCache.EngineHitRate). The failure
// message gives both and the requests that reported.
//
//	Expect(report).To(matchers.HavePrefixCacheHitRateAtLeast(0.5))
//
// A fraction outside [0, 1], a report with no offered requests and a
// report in which no hit rate was measured are errors: the engine must
// report cached_tokens (vLLM with --enable-prompt-tokens-details, SGLang
// with --enable-cache-report) or the run must scrape its metrics.
func HavePrefixCacheHitRateAtLeast(fraction float64) types.GomegaMatcher {
	return prefixCacheMatcher{target: fraction}
}

// prefixCacheMatcher holds only its expectation; see
// HavePrefixCacheHitRateAtLeast.
type prefixCacheMatcher struct{ target float64 }

// prefixCacheVerdict is the matcher's judgment of one report.
type prefixCacheVerdict struct {
	report *report.Report
	rate   float64
	source string // "requests" or "engine counters"
	pass   bool
}

// evaluate judges actual; it keeps nothing, so every method may call it.
func (m prefixCacheMatcher) evaluate(actual any) (prefixCacheVerdict, error) {
	const who = "HavePrefixCacheHitRateAtLeast"
	if err := fractionError(who, "a hit-rate target", m.target); err != nil {
		return prefixCacheVerdict{}, err
	}
	r, err := reportFrom(who, actual)
	if err != nil {
		return prefixCacheVerdict{}, err
	}
	pc := r.PrefixCache
	v := prefixCacheVerdict{report: r}
	switch {
	case pc != nil && pc.HitRate != nil:
		v.rate, v.source = *pc.HitRate, "requests"
	case pc != nil && pc.EngineHitRate != nil:
		v.rate, v.source = *pc.EngineHitRate, "engine counters"
	default:
		reporting, prompt := 0, 0
		if pc != nil {
			reporting, prompt = pc.RequestsReporting, pc.PromptTokens
		}
		return prefixCacheVerdict{}, fmt.Errorf("%s cannot judge a report without a measured prefix-cache hit rate: "+
			"%d of %d successful requests reported cached_tokens, over %d prompt tokens (vLLM reports it with --enable-prompt-tokens-details, "+
			"SGLang with --enable-cache-report), and no engine counter gave a rate (give the run a metrics URL)",
			who, reporting, r.ProtocolSuccesses, prompt)
	}
	v.pass = v.rate >= m.target
	return v, nil
}

// Match reports whether the hit rate reaches the target.
func (m prefixCacheMatcher) Match(actual any) (bool, error) {
	v, err := m.evaluate(actual)
	return v.pass, err
}

// FailureMessage gives the rate judged, both measurements and the target.
func (m prefixCacheMatcher) FailureMessage(actual any) string {
	v, err := m.evaluate(actual)
	if err != nil {
		return err.Error()
	}
	return m.message(v, "to be at least")
}

// NegatedFailureMessage explains why the hit rate reached the target.
func (m prefixCacheMatcher) NegatedFailureMessage(actual any) string {
	v, err := m.evaluate(actual)
	if err != nil {
		return err.Error()
	}
	return m.message(v, "not to be at least")
}

// message states the rate judged and where it came from, then both
// measurements with their populations.
func (m prefixCacheMatcher) message(v prefixCacheVerdict, relation string) string {
	pc := v.report.PrefixCache
	requests := fmt.Sprintf("%d of %d prompt tokens cached over %d of %d successful requests reporting cached_tokens",
		pc.CachedTokens, pc.PromptTokens, pc.RequestsReporting, v.report.ProtocolSuccesses)
	if pc.HitRate != nil {
		requests = fmt.Sprintf("%.3f (%s)", *pc.HitRate, requests)
	} else {
		requests = "not measured (" + requests + ")"
	}
	engine := "not measured (no prefix-cache counter scraped)"
	if pc.EngineHitRate != nil {
		engine = fmt.Sprintf("%.3f (from its counters over the measurement)", *pc.EngineHitRate)
	}
	return fmt.Sprintf("Expected prefix-cache hit rate %.3f (from the %s) %s %.3f\nrequests' hit rate: %s\nengine's hit rate: %s",
		v.rate, v.source, relation, m.target, requests, engine)
}

// String names the objective, for MeetSLOs and spec reports.
func (m prefixCacheMatcher) String() string {
	return fmt.Sprintf("prefix-cache hit rate >= %.3f", m.target)
}
