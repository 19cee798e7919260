package vllm

import "github.com/servebench/servebench/containers/internal/module"

// Option is a vLLM setting. It satisfies testcontainers.ContainerCustomizer
// so that it can be passed to Run beside the shared containers options.
type Option = module.FlagOption

// flags are vLLM's own flags, in the order they are written.
var flags = module.FlagSet{Kind: "vllm", Order: []string{
	"--model", "--served-model-name", "--max-model-len", "--max-num-seqs",
	"--max-num-batched-tokens", "--dtype", "--tensor-parallel-size", "--gpu-memory-utilization",
}}

// WithModel sets the Hugging Face model ID or the path inside the container
// to serve (--model). Required.
func WithModel(model string) Option { return flags.Text("WithModel", "--model", model) }

// WithServedModelName sets the model name clients put in requests
// (--served-model-name); it defaults to the model.
func WithServedModelName(name string) Option {
	return flags.Text("WithServedModelName", "--served-model-name", name)
}

// WithMaxModelLen sets the context length, prompt plus output
// (--max-model-len).
func WithMaxModelLen(tokens int) Option {
	return flags.Positive("WithMaxModelLen", "--max-model-len", tokens)
}

// WithMaxNumSeqs caps the sequences processed in one iteration
// (--max-num-seqs).
func WithMaxNumSeqs(n int) Option { return flags.Positive("WithMaxNumSeqs", "--max-num-seqs", n) }

// WithMaxNumBatchedTokens caps the tokens processed in one iteration, the
// batched-token budget shared by prefill and decode
// (--max-num-batched-tokens).
func WithMaxNumBatchedTokens(tokens int) Option {
	return flags.Positive("WithMaxNumBatchedTokens", "--max-num-batched-tokens", tokens)
}

// WithDtype sets the weights' and activations' data type (--dtype): auto,
// half, float16, bfloat16, float or float32.
func WithDtype(dtype string) Option {
	return flags.OneOf("WithDtype", "--dtype", dtype, "auto", "half", "float16", "bfloat16", "float", "float32")
}

// WithTensorParallelSize shards the model over n GPUs
// (--tensor-parallel-size).
func WithTensorParallelSize(n int) Option {
	return flags.Positive("WithTensorParallelSize", "--tensor-parallel-size", n)
}

// WithGPUMemoryUtilization sets the fraction of GPU memory vLLM may use
// for weights and KV cache (--gpu-memory-utilization), in (0, 1].
func WithGPUMemoryUtilization(fraction float64) Option {
	return flags.Fraction("WithGPUMemoryUtilization", "--gpu-memory-utilization", fraction)
}
