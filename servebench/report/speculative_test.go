package report_test

import (
	"reflect"
	"testing"

	"github.com/servebench/servebench/servebench/report"
)

// The counters are summed over their label sets (two engines here): 6 + 4
// drafts, 12 + 8 draft tokens, 9 + 3 accepted, so the rate is 12/20 = 0.6
// and the mean length 1 + 12/10 = 2.2; position 0 was accepted 5 + 3
// times and position 1 4 + 0, over 10 drafts.
func TestSpeculativeDecodingSumsLabelSets(t *testing.T) {
	em := &report.EngineMetrics{Counters: map[string]float64{
		`vllm:spec_decode_num_drafts_total{engine="0",model_name="m"}`:                               6,
		`vllm:spec_decode_num_drafts_total{engine="1",model_name="m"}`:                               4,
		`vllm:spec_decode_num_draft_tokens_total{engine="0",model_name="m"}`:                         12,
		`vllm:spec_decode_num_draft_tokens_total{engine="1",model_name="m"}`:                         8,
		`vllm:spec_decode_num_accepted_tokens_total{engine="0",model_name="m"}`:                      9,
		`vllm:spec_decode_num_accepted_tokens_total{engine="1",model_name="m"}`:                      3,
		`vllm:spec_decode_num_accepted_tokens_per_pos_total{engine="0",model_name="m",position="0"}`: 5,
		`vllm:spec_decode_num_accepted_tokens_per_pos_total{engine="1",model_name="m",position="0"}`: 3,
		`vllm:spec_decode_num_accepted_tokens_per_pos_total{engine="0",model_name="m",position="1"}`: 4,
		`vllm:spec_decode_num_accepted_tokens_per_pos_total{engine="1",model_name="m",position="1"}`: 0,
	}}
	sd := em.SpeculativeDecoding()
	if sd == nil || sd.Drafts != 10 || sd.DraftTokens != 20 || sd.AcceptedTokens != 12 || *sd.AcceptanceRate != 0.6 ||
		*sd.MeanAcceptanceLength != 2.2 || !reflect.DeepEqual(sd.PerPosition, []float64{0.8, 0.4}) {
		t.Fatalf("got %+v", sd)
	}
}

// No drafts counter: nil. Drafts exposed but none made: the counts are 0
// and every rate is nil, never 0.
func TestSpeculativeDecodingUndefinedRates(t *testing.T) {
	if sd := (&report.EngineMetrics{Counters: map[string]float64{"vllm:prompt_tokens_total": 5}}).SpeculativeDecoding(); sd != nil {
		t.Fatalf("without the counters: %+v, want nil", sd)
	}
	sd := (&report.EngineMetrics{Counters: map[string]float64{
		"vllm:spec_decode_num_drafts_total": 0, "vllm:spec_decode_num_draft_tokens_total": 0, "vllm:spec_decode_num_accepted_tokens_total": 0,
	}}).SpeculativeDecoding()
	if sd == nil || sd.Drafts != 0 || sd.AcceptanceRate != nil || sd.MeanAcceptanceLength != nil || sd.PerPosition != nil {
		t.Fatalf("no drafts: %+v, want zero counts and nil rates", sd)
	}
}
