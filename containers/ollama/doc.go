// Package ollama starts Ollama with a model created from a GGUF file and
// gives back a ready containers.Engine, in two ways:
//
//   - Run starts the real ollama/ollama image through testcontainers-go, for
//     machines with Docker. The GGUF file and a generated Modelfile are
//     copied into the container before it starts; once GET / answers, the
//     model is created with `ollama create` inside the container.
//   - RunLocal starts a local `ollama` binary (given, or found on PATH; see
//     FindBinary) as a process on 127.0.0.1 through module.StartProcess,
//     for machines without Docker and for CI. The model is created with the
//     same binary's `ollama create`.
//
// Both set OLLAMA_HOST to the listen address (a free 127.0.0.1 port for a
// local process), OLLAMA_MODELS (a temporary directory for a local process
// unless containers.WithModelCache names one), OLLAMA_NUM_PARALLEL (default
// 4), OLLAMA_KEEP_ALIVE=-1 (the model stays loaded for the whole run) and
// OLLAMA_NO_CLOUD=1. The Modelfile is FROM the GGUF file with a plain
// TEMPLATE, PARAMETER num_thread (default 1: on small machines Ollama's
// default thread count makes inter-token gaps jump from under a millisecond
// to tens of milliseconds) and PARAMETER num_predict (default 256, a cap for
// requests without max_tokens). Readiness ends with the model loaded (an
// empty POST /api/generate), so ColdStart covers serve, create and load and
// the first measured request does not pay for the load. A local server
// keeps its identity key in $HOME/.ollama as Ollama always does; pass
// containers.WithEnv with another HOME to keep it elsewhere.
//
// # Output length
//
// Ollama's OpenAI-compatible API honours max_tokens exactly as a cap but
// ignores ignore_eos (and max_completion_tokens): nothing in a request can
// make it run to max_tokens when the model samples its end-of-sequence
// token. A workload that forces output lengths is therefore not enforceable
// on this engine, and LengthControl returns openai.LengthUnsupported so
// the runner records such rows as not enforced instead of trusting them.
// When EOS ends a request, Ollama's completion_tokens counts the EOS token.
// With the generated test models of package fixtures/gguf, EOS can be
// disabled in the model itself (gguf.EOSNever), which is how the project's
// own suites get exact lengths from Ollama.
//
// # How Ollama streams (v0.17.4)
//
// One SSE event per token, no role-only first chunk (every chat delta
// repeats "role": "assistant"), then a finish event with empty text and
// finish_reason "length" or "stop", then with stream_options.include_usage
// a usage chunk whose choices are empty, then "data: [DONE]". On
// /v1/completions every chunk carries a usage object of zeros as well: read
// usage only from the chunk with empty choices.
package ollama
