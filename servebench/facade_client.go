package servebench

import "github.com/servebench/servebench/servebench/openai"

// NewClient returns the client for the engine at baseURL serving model,
// the value RunConfig.Client takes: chat completions, streamed, with a
// 5 minute total deadline per request and a 1 minute limit on the silence
// between stream events. It is openai.NewClient; change any field before
// the first use.
func NewClient(baseURL, model string) *openai.Client { return openai.NewClient(baseURL, model) }
