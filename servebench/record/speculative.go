package record

// SpeculativeDecoding is one request's own speculative-decoding figures,
// where the engine sends them with its response: vLLM with
// --per-request-spec-decode-metrics puts metrics.speculative_decoding at
// the root of a non-streaming body and of a stream's last chunk.
type SpeculativeDecoding struct {
	// Steps counts the request's verification steps (drafts),
	// num_spec_steps.
	Steps int `json:"steps"`
	// DraftTokens counts the tokens drafted for it, num_draft_tokens.
	DraftTokens int `json:"draft_tokens"`
	// AcceptedTokens counts those accepted, num_accepted_draft_tokens.
	AcceptedTokens int `json:"accepted_tokens"`
}
