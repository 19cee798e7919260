package tgi

import "github.com/servebench/servebench/containers/internal/module"

// Option is a TGI setting. It satisfies testcontainers.ContainerCustomizer
// so that it can be passed to Run beside the shared containers options.
type Option = module.FlagOption

// flags are TGI's own flags, in the order they are written.
var flags = module.FlagSet{Kind: "tgi", Order: []string{
	"--model-id", "--max-input-tokens", "--max-total-tokens", "--max-concurrent-requests",
	"--max-batch-prefill-tokens", "--max-batch-total-tokens", "--dtype", "--num-shard",
}}

// WithModel sets the Hugging Face model ID or the directory inside the
// container to serve (--model-id). Required. TGI serves it under that name.
func WithModel(model string) Option { return flags.Text("WithModel", "--model-id", model) }

// WithMaxInputTokens caps a prompt's length (--max-input-tokens).
func WithMaxInputTokens(tokens int) Option {
	return flags.Positive("WithMaxInputTokens", "--max-input-tokens", tokens)
}

// WithMaxTotalTokens sets the context length of one request, prompt plus
// output (--max-total-tokens).
func WithMaxTotalTokens(tokens int) Option {
	return flags.Positive("WithMaxTotalTokens", "--max-total-tokens", tokens)
}

// WithMaxConcurrentRequests caps the requests admitted at once; beyond it
// TGI refuses requests (--max-concurrent-requests).
func WithMaxConcurrentRequests(n int) Option {
	return flags.Positive("WithMaxConcurrentRequests", "--max-concurrent-requests", n)
}

// WithMaxBatchPrefillTokens caps the tokens of one prefill operation, TGI's
// batched-token budget for prompts (--max-batch-prefill-tokens).
func WithMaxBatchPrefillTokens(tokens int) Option {
	return flags.Positive("WithMaxBatchPrefillTokens", "--max-batch-prefill-tokens", tokens)
}

// WithMaxBatchTotalTokens caps the tokens of all requests in a batch
// (--max-batch-total-tokens).
func WithMaxBatchTotalTokens(tokens int) Option {
	return flags.Positive("WithMaxBatchTotalTokens", "--max-batch-total-tokens", tokens)
}

// WithDtype forces the model's data type (--dtype): float16 or bfloat16.
func WithDtype(dtype string) Option {
	return flags.OneOf("WithDtype", "--dtype", dtype, "float16", "bfloat16")
}

// WithNumShard shards the model over n GPUs, TGI's tensor parallelism
// (--num-shard).
func WithNumShard(n int) Option { return flags.Positive("WithNumShard", "--num-shard", n) }
