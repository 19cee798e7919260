package report

import (
	"math"
	"regexp"
	"strconv"
)

// SpeculativeDecoding is what the engine's speculative decoding did over
// the measurement, from the increases of its counters (vLLM's names):
//
//   - acceptance_rate = accepted tokens / draft tokens;
//   - mean_acceptance_length = 1 + accepted tokens / drafts (the tokens a
//     verification step yields: the accepted ones and the target model's
//     own);
//   - per_position[i] = tokens accepted at position i / drafts.
//
// A rate whose denominator is 0 is nil.
type SpeculativeDecoding struct {
	// Drafts counts the drafts verified
	// (vllm:spec_decode_num_drafts_total).
	Drafts int64 `json:"drafts"`
	// DraftTokens counts the tokens they proposed
	// (vllm:spec_decode_num_draft_tokens_total).
	DraftTokens int64 `json:"draft_tokens"`
	// AcceptedTokens counts the tokens accepted of them
	// (vllm:spec_decode_num_accepted_tokens_total).
	AcceptedTokens int64 `json:"accepted_tokens"`
	// AcceptanceRate is AcceptedTokens / DraftTokens.
	AcceptanceRate *float64 `json:"acceptance_rate"`
	// MeanAcceptanceLength is 1 + AcceptedTokens / Drafts.
	MeanAcceptanceLength *float64 `json:"mean_acceptance_length"`
	// PerPosition gives, for each draft position from 0, the tokens
	// accepted there over Drafts
	// (vllm:spec_decode_num_accepted_tokens_per_pos_total{position});
	// nil when the engine does not expose the counter or Drafts is 0.
	PerPosition []float64 `json:"per_position,omitempty"`
}

// The counters a SpeculativeDecoding is read from.
const (
	vllmSpecDrafts         = "vllm:spec_decode_num_drafts_total"
	vllmSpecDraftTokens    = "vllm:spec_decode_num_draft_tokens_total"
	vllmSpecAccepted       = "vllm:spec_decode_num_accepted_tokens_total"
	vllmSpecAcceptedPerPos = "vllm:spec_decode_num_accepted_tokens_per_pos_total"
)

// positionLabel reads the position label of a per-position series.
var positionLabel = regexp.MustCompile(`[{,]position="([0-9]+)"`)

// SpeculativeDecoding reads the engine's speculative-decoding counters,
// each summed over its label sets (vLLM labels them by engine and model);
// nil when the engine does not expose vllm:spec_decode_num_drafts_total
// (speculative decoding off, or not vLLM's names).
func (em *EngineMetrics) SpeculativeDecoding() *SpeculativeDecoding {
	if em == nil {
		return nil
	}
	sums := map[string]float64{}
	perPos := map[int]float64{}
	for series, v := range em.Counters {
		name := metricName(series)
		switch name {
		case vllmSpecDrafts, vllmSpecDraftTokens, vllmSpecAccepted:
			sums[name] += v
		case vllmSpecAcceptedPerPos:
			if m := positionLabel.FindStringSubmatch(series); m != nil {
				if i, err := strconv.Atoi(m[1]); err == nil {
					perPos[i] += v
				}
			}
		}
	}
	drafts, ok := sums[vllmSpecDrafts]
	if !ok {
		return nil
	}
	sd := &SpeculativeDecoding{
		Drafts: int64(math.Round(drafts)), DraftTokens: int64(math.Round(sums[vllmSpecDraftTokens])),
		AcceptedTokens: int64(math.Round(sums[vllmSpecAccepted])),
	}
	if sd.DraftTokens > 0 {
		sd.AcceptanceRate = new(float64(sd.AcceptedTokens) / float64(sd.DraftTokens))
	}
	if sd.Drafts > 0 {
		sd.MeanAcceptanceLength = new(1 + float64(sd.AcceptedTokens)/float64(sd.Drafts))
		sd.PerPosition = perPositionRates(perPos, sd.Drafts)
	}
	return sd
}

// perPositionRates lays the per-position counts out from position 0 (a
// position the engine did not expose counts 0) over drafts; nil without
// any position.
func perPositionRates(perPos map[int]float64, drafts int64) []float64 {
	last := -1
	for i := range perPos {
		last = max(last, i)
	}
	if last < 0 {
		return nil
	}
	out := make([]float64, last+1)
	for i, v := range perPos {
		out[i] = math.Round(v) / float64(drafts)
	}
	return out
}
