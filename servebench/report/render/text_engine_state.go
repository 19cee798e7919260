package render

import (
	"fmt"
	"strings"

	"github.com/servebench/servebench/internal/numfmt"
	"github.com/servebench/servebench/servebench/report"
)

// cacheStateText is the text report's line on the prefix-cache state:
// reset (and through which route) or uncontrolled, with the workload's
// declared policy.
func cacheStateText(s report.EngineState) string {
	out := s.CacheState
	if s.CacheResetRoute != "" {
		out += " (POST " + s.CacheResetRoute + " before the warmup)"
	}
	if s.CachePolicy != "" {
		out += "; the workload declares " + s.CachePolicy
	}
	return out
}

// speculativeText is the text report's line on speculative decoding: the
// acceptance rate and mean acceptance length with their counts.
func speculativeText(sd *report.SpeculativeDecoding) string {
	out := fmt.Sprintf("acceptance rate %s (%d of %d draft tokens), mean acceptance length %s over %d drafts",
		numfmt.OptPercent(sd.AcceptanceRate), sd.AcceptedTokens, sd.DraftTokens, numfmt.OptFixed(sd.MeanAcceptanceLength, 2), sd.Drafts)
	if len(sd.PerPosition) > 0 {
		parts := make([]string, len(sd.PerPosition))
		for i, v := range sd.PerPosition {
			parts[i] = numfmt.Percent(v)
		}
		out += "; per position " + strings.Join(parts, ", ")
	}
	return out
}

// engineStartsText is the text report's line on the engine's starts: each
// one's time to ready and to the first token.
func engineStartsText(starts []report.EngineStart) string {
	parts := make([]string, len(starts))
	for i, s := range starts {
		parts[i] = fmt.Sprintf("ready %s ms, first token %s ms", numfmt.OptFixed(s.ReadyMS, 0), numfmt.OptFixed(s.FirstTokenMS, 0))
		if s.PullMS != nil {
			parts[i] += fmt.Sprintf(" (pull %s ms apart)", numfmt.OptFixed(s.PullMS, 0))
		}
	}
	return numfmt.Count(len(starts), "start", "starts") + ": " + strings.Join(parts, "; ")
}
