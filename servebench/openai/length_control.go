package openai

import (
	"fmt"
	"slices"
	"strings"

	"github.com/servebench/servebench/servebench/record"
)

// LengthControl says how an engine is asked to generate exactly max_tokens
// tokens for a workload row with IgnoreEOS set (a shape-controlled stress
// test). Engines differ: some honour vLLM's ignore_eos extension, some need
// a minimum length as well, and some have no way to force a length at all
// through their OpenAI-compatible API. Sending a field that an engine
// silently ignores and assuming it worked would make output lengths differ
// between engines without anyone noticing, so the choice is declared, and a
// row whose length cannot be enforced is marked as such (see Enforces).
//
// The zero value behaves as LengthIgnoreEOS.
type LengthControl string

// The ways to force an output length.
const (
	// LengthIgnoreEOS sends "ignore_eos": true: llama.cpp's server (a
	// documented generation option that its OpenAI endpoints pass through)
	// and the simulated engine.
	LengthIgnoreEOS LengthControl = "ignore_eos"
	// LengthIgnoreEOSMinTokens also sends "min_tokens": max_tokens: vLLM
	// (both are extra sampling parameters of its OpenAI server) and SGLang
	// (both are in its OpenAI request model). min_tokens is a floor on the
	// generated length even when a stop string or stop token would
	// otherwise end the output early.
	LengthIgnoreEOSMinTokens LengthControl = "ignore_eos+min_tokens"
	// LengthUnsupported sends nothing: the engine cannot be made to run to
	// max_tokens. Ollama's OpenAI API ignores ignore_eos (and
	// max_completion_tokens); TGI's OpenAI API has no such parameter. A row
	// that asks for a forced length is then recorded as not enforced.
	LengthUnsupported LengthControl = "unsupported"
)

// lengthControls are the declared values in a stable order.
var lengthControls = [...]LengthControl{LengthIgnoreEOS, LengthIgnoreEOSMinTokens, LengthUnsupported}

// LengthControls lists the declared values in a stable order. The slice is
// the caller's own.
func LengthControls() []LengthControl { return slices.Clone(lengthControls[:]) }

// ParseLengthControl reads a LengthControl by name; the empty string is
// LengthIgnoreEOS.
func ParseLengthControl(s string) (LengthControl, error) {
	l := LengthControl(strings.TrimSpace(s))
	if l == "" {
		return LengthIgnoreEOS, nil
	}
	if !l.Valid() {
		names := make([]string, len(lengthControls))
		for i, k := range lengthControls {
			names[i] = string(k)
		}
		return "", fmt.Errorf("unknown length control %q: want one of %s", s, strings.Join(names, ", "))
	}
	return l, nil
}

// Valid reports whether l is a declared value (the zero value counts as
// LengthIgnoreEOS).
func (l LengthControl) Valid() bool {
	switch l {
	case "", LengthIgnoreEOS, LengthIgnoreEOSMinTokens, LengthUnsupported:
		return true
	}
	return false
}

// Enforces says whether a forced length is enforceable for req: nil when
// the row does not ask for one (IgnoreEOS false), else true or false. A
// report should flag every row where it is false: its output length is the
// model's natural length, not max_tokens.
func (l LengthControl) Enforces(req *record.Request) *bool {
	if req == nil || !req.IgnoreEOS {
		return nil
	}
	return new(l != LengthUnsupported)
}

// LengthControlFor returns the control that suits an engine by name:
// vllm, sglang, llamacpp (or llama.cpp), tgi, ollama, simengine. The
// engine modules in containers/ give the same answer. It reports false
// for an engine it does not know.
func LengthControlFor(engine string) (LengthControl, bool) {
	switch strings.ToLower(strings.TrimSpace(engine)) {
	case "vllm":
		return LengthIgnoreEOSMinTokens, true
	case "sglang":
		return LengthIgnoreEOSMinTokens, true
	case "llamacpp", "llama.cpp", "llama-cpp", "simengine", "sim", "simulated":
		return LengthIgnoreEOS, true
	case "tgi", "ollama":
		return LengthUnsupported, true
	}
	return "", false
}

// lengthFields returns the body members that force req's length, in the
// order they are written; none when the row does not ask for it or the
// engine cannot do it.
func (l LengthControl) lengthFields(req *record.Request) (ignoreEOS, minTokens bool) {
	if !req.IgnoreEOS {
		return false, false
	}
	switch l {
	case "", LengthIgnoreEOS:
		return true, false
	case LengthIgnoreEOSMinTokens:
		return true, req.MaxTokens > 0
	}
	return false, false
}
