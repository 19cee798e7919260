package containers

// How an engine is told to generate exactly max_tokens tokens when a
// workload row asks for a shape-controlled output (Request.IgnoreEOS). Each
// engine module documents its rule and returns it from LengthControl.
const (
	// LengthIgnoreEOSMinTokens: the request body carries "ignore_eos": true
	// and "min_tokens" equal to "max_tokens" (vLLM, SGLang).
	LengthIgnoreEOSMinTokens = "ignore_eos+min_tokens"
	// LengthIgnoreEOS: the request body carries "ignore_eos": true and
	// max_tokens is the length; the engine has no min_tokens (llama.cpp
	// server, the simulated engine).
	LengthIgnoreEOS = "ignore_eos"
	// LengthNone: no request field forces the length; max_tokens is only a
	// cap and the observed length comes from usage (TGI, whose router
	// always sets ignore_eos_token to false).
	LengthNone = "none"
)
