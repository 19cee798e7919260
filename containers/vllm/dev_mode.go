package vllm

import (
	"github.com/servebench/servebench/containers"
	"github.com/servebench/servebench/servebench/openai"
)

// DevModeEnv is the environment variable with which vLLM serves its
// development routes, POST /reset_prefix_cache among them (servebench's
// --reset-prefix-cache and a contract's `cache: reset` call it).
const DevModeEnv = openai.VLLMDevModeEnv

// WithDevMode runs vLLM with VLLM_SERVER_DEV_MODE=1, so that it serves
// POST /reset_prefix_cache. A contract that says `cache: reset` starts
// vLLM so.
func WithDevMode() containers.Option {
	return containers.WithEnv(map[string]string{DevModeEnv: "1"})
}
