package render

import (
	"fmt"

	"github.com/servebench/servebench/internal/numfmt"
	"github.com/servebench/servebench/servebench/report"
)

// prefixCacheText is the text report's one line on the prefix cache: the
// requests' hit rate beside its tokens and population, then the engine's.
func prefixCacheText(pc *report.PrefixCache) string {
	requests := "no request reported cached_tokens"
	if pc.RequestsReporting > 0 {
		requests = fmt.Sprintf("%s of prompt tokens (%d / %d, reported by %s)", numfmt.OptPercent(pc.HitRate),
			pc.CachedTokens, pc.PromptTokens, numfmt.Count(pc.RequestsReporting, "successful request", "successful requests"))
	}
	engine := "no engine counters"
	if pc.EngineHitRate != nil {
		engine = "engine counters " + numfmt.Percent(*pc.EngineHitRate)
	}
	return requests + "; " + engine
}

// expectedReuseText compares the cached tokens with the reuse the workload
// declared: "engine cached X of the Y tokens the workload makes reusable
// (Z %)"; "" when the workload declared none.
func expectedReuseText(pc *report.PrefixCache) string {
	if pc.ExpectedCachedTokens == nil {
		return ""
	}
	return fmt.Sprintf("engine cached %d of the %d tokens the workload makes reusable (%s)",
		pc.CachedTokens, *pc.ExpectedCachedTokens, numfmt.OptPercent(pc.ReuseAchieved))
}
