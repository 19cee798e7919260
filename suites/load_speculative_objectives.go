package suites

// SpeculativeObjective bounds the engine's speculative decoding over each
// load point's measurement (report.json's speculative_decoding, read from
// the engine's counters: the engine's metrics URL is needed).
type SpeculativeObjective struct {
	// MeanAcceptanceLengthAtLeast is the minimum 1 + accepted tokens /
	// drafts (matchers.HaveMeanAcceptanceLengthAtLeast).
	MeanAcceptanceLengthAtLeast *float64
	// AcceptanceRateAtLeast is the minimum accepted / draft tokens
	// (matchers.HaveAcceptanceRateAtLeast).
	AcceptanceRateAtLeast *float64
}

// speculativeDecoding reads `speculative_decoding:
// {mean_acceptance_length_at_least: L, acceptance_rate_at_least: R}`: L a
// number of at least 1, R a fraction; an empty mapping is an error.
func (d *decoder) speculativeDecoding(o *mapping) *SpeculativeObjective {
	if !o.has("speculative_decoding") {
		return nil
	}
	path := d.objAt + ".speculative_decoding"
	sm := d.mapping(o.get("speculative_decoding"), path, "mean_acceptance_length_at_least", "acceptance_rate_at_least")
	if sm == nil {
		return nil
	}
	if len(sm.node.Content) == 0 {
		d.errorf(o.get("speculative_decoding"), path, "declare mean_acceptance_length_at_least, acceptance_rate_at_least or both")
		return nil
	}
	so := &SpeculativeObjective{AcceptanceRateAtLeast: d.fraction(sm, "acceptance_rate_at_least")}
	if n := sm.get("mean_acceptance_length_at_least"); n != nil {
		if v, ok := d.number(n, sm.field("mean_acceptance_length_at_least")); ok {
			if v < 1 {
				d.errorf(n, sm.field("mean_acceptance_length_at_least"), "a mean acceptance length counts the target model's own token, so it is at least 1; got %s", n.Value)
			} else {
				so.MeanAcceptanceLengthAtLeast = &v
			}
		}
	}
	return so
}
