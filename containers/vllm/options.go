package vllm

import (
	"errors"
	"fmt"
	"strconv"

	"github.com/servebench/servebench/containers"
	"github.com/testcontainers/testcontainers-go"
)

// options are vLLM's own settings, read by Run.
type options struct {
	model                string
	servedModelName      string
	maxModelLen          int
	maxNumSeqs           int
	maxNumBatchedTokens  int
	dtype                string
	tensorParallelSize   int
	gpuMemoryUtilization string
}

// Option is a vLLM setting. It satisfies testcontainers.ContainerCustomizer
// so that it can be passed to Run beside the shared containers options; its
// Customize does nothing.
type Option func(*options) error

// Customize implements testcontainers.ContainerCustomizer; Run reads the
// option itself.
func (o Option) Customize(*testcontainers.GenericContainerRequest) error { return nil }

// WithModel sets the Hugging Face model ID or the path inside the container
// to serve (--model). Required.
func WithModel(model string) Option {
	return func(o *options) error {
		if model == "" {
			return errors.New("vllm.WithModel: empty model")
		}
		o.model = model
		return nil
	}
}

// WithServedModelName sets the model name clients put in requests
// (--served-model-name); it defaults to the model.
func WithServedModelName(name string) Option {
	return func(o *options) error {
		if name == "" {
			return errors.New("vllm.WithServedModelName: empty name")
		}
		o.servedModelName = name
		return nil
	}
}

// WithMaxModelLen sets the context length, prompt plus output
// (--max-model-len).
func WithMaxModelLen(tokens int) Option {
	return func(o *options) error {
		if err := containers.Positive("vllm.WithMaxModelLen", tokens); err != nil {
			return err
		}
		o.maxModelLen = tokens
		return nil
	}
}

// WithMaxNumSeqs caps the sequences processed in one iteration
// (--max-num-seqs).
func WithMaxNumSeqs(n int) Option {
	return func(o *options) error {
		if err := containers.Positive("vllm.WithMaxNumSeqs", n); err != nil {
			return err
		}
		o.maxNumSeqs = n
		return nil
	}
}

// WithMaxNumBatchedTokens caps the tokens processed in one iteration, the
// batched-token budget shared by prefill and decode
// (--max-num-batched-tokens).
func WithMaxNumBatchedTokens(tokens int) Option {
	return func(o *options) error {
		if err := containers.Positive("vllm.WithMaxNumBatchedTokens", tokens); err != nil {
			return err
		}
		o.maxNumBatchedTokens = tokens
		return nil
	}
}

// dtypes are the values vLLM's --dtype accepts.
var dtypes = map[string]bool{"auto": true, "half": true, "float16": true, "bfloat16": true, "float": true, "float32": true}

// WithDtype sets the weights' and activations' data type (--dtype): auto,
// half, float16, bfloat16, float or float32.
func WithDtype(dtype string) Option {
	return func(o *options) error {
		if !dtypes[dtype] {
			return fmt.Errorf("vllm.WithDtype: %q is not one of auto, half, float16, bfloat16, float, float32", dtype)
		}
		o.dtype = dtype
		return nil
	}
}

// WithTensorParallelSize shards the model over n GPUs
// (--tensor-parallel-size).
func WithTensorParallelSize(n int) Option {
	return func(o *options) error {
		if err := containers.Positive("vllm.WithTensorParallelSize", n); err != nil {
			return err
		}
		o.tensorParallelSize = n
		return nil
	}
}

// WithGPUMemoryUtilization sets the fraction of GPU memory vLLM may use
// for weights and KV cache (--gpu-memory-utilization), in (0, 1].
func WithGPUMemoryUtilization(fraction float64) Option {
	return func(o *options) error {
		if fraction <= 0 || fraction > 1 {
			return fmt.Errorf("vllm.WithGPUMemoryUtilization: %v is not in (0, 1]", fraction)
		}
		o.gpuMemoryUtilization = strconv.FormatFloat(fraction, 'f', -1, 64)
		return nil
	}
}

// args returns vLLM's arguments for o, in a fixed order.
func (o options) args() []string {
	args := []string{"--model", o.model}
	if o.servedModelName != "" {
		args = append(args, "--served-model-name", o.servedModelName)
	}
	intFlag := func(flag string, v int) {
		if v > 0 {
			args = append(args, flag, strconv.Itoa(v))
		}
	}
	intFlag("--max-model-len", o.maxModelLen)
	intFlag("--max-num-seqs", o.maxNumSeqs)
	intFlag("--max-num-batched-tokens", o.maxNumBatchedTokens)
	if o.dtype != "" {
		args = append(args, "--dtype", o.dtype)
	}
	intFlag("--tensor-parallel-size", o.tensorParallelSize)
	if o.gpuMemoryUtilization != "" {
		args = append(args, "--gpu-memory-utilization", o.gpuMemoryUtilization)
	}
	return args
}
