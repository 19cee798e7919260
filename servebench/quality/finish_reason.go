package quality

// canonicalFinishReason maps an engine's own finish reasons onto the
// OpenAI names, so that an expectation written as "stop" holds on every
// engine: TGI's completions endpoint reports "eos_token" and
// "stop_sequence" where the others say "stop". The outcome record keeps the
// name the engine sent.
func canonicalFinishReason(r string) string {
	switch r {
	case "eos_token", "stop_sequence":
		return "stop"
	}
	return r
}
