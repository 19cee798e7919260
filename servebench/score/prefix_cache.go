package score

import "github.com/servebench/servebench/servebench/report"

// prefixCacheTally sums the cached and prompt tokens of the successful
// requests that reported both. Sums of integers do not depend on the order
// of the records, so the in-memory and the streamed scorer agree.
type prefixCacheTally struct {
	reporting      int
	cached, prompt int
}

// add counts one successful record.
func (t *prefixCacheTally) add(rec *scoreRecord) {
	if rec.cachedTokens == nil || rec.inputTokens == nil {
		return
	}
	t.reporting++
	t.cached += *rec.cachedTokens
	t.prompt += *rec.inputTokens
}

// report is the requests' side of the report's PrefixCache; nil when no
// request reported (the engine's rate is added by whoever scraped it).
func (t *prefixCacheTally) report() *report.PrefixCache {
	if t.reporting == 0 {
		return nil
	}
	pc := &report.PrefixCache{RequestsReporting: t.reporting, CachedTokens: t.cached, PromptTokens: t.prompt}
	if t.prompt > 0 {
		pc.HitRate = new(float64(t.cached) / float64(t.prompt))
	}
	return pc
}
