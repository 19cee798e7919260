package report

import (
	"fmt"

	"github.com/servebench/servebench/internal/numfmt"
)

// prefixCacheText is the text report's one line on the prefix cache: the
// requests' hit rate beside its tokens and population, then the engine's.
func prefixCacheText(pc *PrefixCache) string {
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
