package score

import "github.com/servebench/servebench/servebench/report"

// prefixCacheTally sums the cached and prompt tokens of the successful
// requests that reported both, and the reusable prompt tokens their rows
// declared. Sums of integers do not depend on the order of the records,
// so the in-memory and the streamed scorer agree.
type prefixCacheTally struct {
	reporting      int
	cached, prompt int
	// declaring counts the reporting requests whose row declared
	// reusable_prompt_tokens; reusable sums the declared figures.
	declaring, reusable int
}

// add counts one successful record.
func (t *prefixCacheTally) add(rec *scoreRecord) {
	if rec.cachedTokens == nil || rec.inputTokens == nil {
		return
	}
	t.reporting++
	t.cached += *rec.cachedTokens
	t.prompt += *rec.inputTokens
	if rec.reusableTokens != nil {
		t.declaring++
		t.reusable += *rec.reusableTokens
	}
}

// report is the requests' side of the report's PrefixCache; nil when no
// request reported (the engine's rate is added by whoever scraped it).
// The expected reuse is filled only when every reporting request's row
// declared its reusable tokens, so that the expectation and the engine's
// figure count the same requests.
func (t *prefixCacheTally) report() *report.PrefixCache {
	if t.reporting == 0 {
		return nil
	}
	pc := &report.PrefixCache{RequestsReporting: t.reporting, CachedTokens: t.cached, PromptTokens: t.prompt}
	if t.prompt > 0 {
		pc.HitRate = new(float64(t.cached) / float64(t.prompt))
	}
	if t.declaring == t.reporting {
		pc.ExpectedCachedTokens = new(t.reusable)
		if t.prompt > 0 {
			pc.ExpectedHitRate = new(float64(t.reusable) / float64(t.prompt))
		}
		if t.reusable > 0 {
			pc.ReuseAchieved = new(float64(t.cached) / float64(t.reusable))
		}
	}
	return pc
}
