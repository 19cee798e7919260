package sglang

import (
	"fmt"
	"strconv"

	"github.com/servebench/servebench/containers/internal/module"
)

// Option is an SGLang setting. It satisfies
// testcontainers.ContainerCustomizer so that it can be passed to Run beside
// the shared containers options.
type Option = module.FlagOption

// flags are SGLang's own flags, in the order they are written. Metrics are
// always enabled (--enable-metrics, added by the module): a benchmark wants
// the engine's own counters.
var flags = module.FlagSet{Kind: "sglang", Order: []string{
	"--model-path", "--served-model-name", "--context-length", "--max-running-requests",
	"--max-prefill-tokens", "--chunked-prefill-size", "--dtype", "--tp-size", "--mem-fraction-static",
}}

// WithModel sets the Hugging Face model ID or the path inside the container
// to serve (--model-path). Required.
func WithModel(model string) Option { return flags.Text("WithModel", "--model-path", model) }

// WithServedModelName sets the model name clients put in requests
// (--served-model-name); it defaults to the model path.
func WithServedModelName(name string) Option {
	return flags.Text("WithServedModelName", "--served-model-name", name)
}

// WithContextLength sets the model's maximum context length
// (--context-length).
func WithContextLength(tokens int) Option {
	return flags.Positive("WithContextLength", "--context-length", tokens)
}

// WithMaxRunningRequests caps the requests running at once
// (--max-running-requests).
func WithMaxRunningRequests(n int) Option {
	return flags.Positive("WithMaxRunningRequests", "--max-running-requests", n)
}

// WithMaxPrefillTokens caps the tokens of one prefill batch, SGLang's
// batched-token budget for prompts (--max-prefill-tokens).
func WithMaxPrefillTokens(tokens int) Option {
	return flags.Positive("WithMaxPrefillTokens", "--max-prefill-tokens", tokens)
}

// WithChunkedPrefillSize sets the tokens of one chunk of a chunked prefill
// (--chunked-prefill-size); -1 disables chunking.
func WithChunkedPrefillSize(tokens int) Option {
	return flags.Checked("WithChunkedPrefillSize", "--chunked-prefill-size", strconv.Itoa(tokens), func(string) error {
		if tokens == 0 || tokens < -1 {
			return fmt.Errorf("must be positive or -1, got %d", tokens)
		}
		return nil
	})
}

// WithDtype sets the weights' and activations' data type (--dtype): auto,
// half, float16, bfloat16, float or float32.
func WithDtype(dtype string) Option {
	return flags.OneOf("WithDtype", "--dtype", dtype, "auto", "half", "float16", "bfloat16", "float", "float32")
}

// WithTensorParallelSize shards the model over n GPUs (--tp-size).
func WithTensorParallelSize(n int) Option {
	return flags.Positive("WithTensorParallelSize", "--tp-size", n)
}

// WithMemFractionStatic sets the fraction of GPU memory for weights and KV
// cache (--mem-fraction-static), in (0, 1].
func WithMemFractionStatic(fraction float64) Option {
	return flags.Fraction("WithMemFractionStatic", "--mem-fraction-static", fraction)
}
