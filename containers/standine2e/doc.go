// Package standine2e starts the vllm, sglang, tgi and llamacpp engine
// modules end to end against the engine stand-in (cmd/enginestandin): as
// containers through testcontainers, from one image built FROM scratch here
// with one build target per engine, and as local processes. It holds tests
// only.
package standine2e
