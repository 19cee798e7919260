package sglang

import (
	"errors"
	"fmt"
	"strconv"

	"github.com/servebench/servebench/containers"
	"github.com/testcontainers/testcontainers-go"
)

// options are SGLang's own settings, read by Run.
type options struct {
	modelPath          string
	servedModelName    string
	contextLength      int
	maxRunningRequests int
	maxPrefillTokens   int
	chunkedPrefillSize int
	dtype              string
	tpSize             int
	memFractionStatic  string
}

// Option is an SGLang setting. It satisfies
// testcontainers.ContainerCustomizer so that it can be passed to Run beside
// the shared containers options; its Customize does nothing.
type Option func(*options) error

// Customize implements testcontainers.ContainerCustomizer; Run reads the
// option itself.
func (o Option) Customize(*testcontainers.GenericContainerRequest) error { return nil }

// WithModel sets the Hugging Face model ID or the path inside the container
// to serve (--model-path). Required.
func WithModel(model string) Option {
	return func(o *options) error {
		if model == "" {
			return errors.New("sglang.WithModel: empty model")
		}
		o.modelPath = model
		return nil
	}
}

// WithServedModelName sets the model name clients put in requests
// (--served-model-name); it defaults to the model path.
func WithServedModelName(name string) Option {
	return func(o *options) error {
		if name == "" {
			return errors.New("sglang.WithServedModelName: empty name")
		}
		o.servedModelName = name
		return nil
	}
}

// WithContextLength sets the model's maximum context length
// (--context-length).
func WithContextLength(tokens int) Option {
	return func(o *options) error {
		if err := containers.Positive("sglang.WithContextLength", tokens); err != nil {
			return err
		}
		o.contextLength = tokens
		return nil
	}
}

// WithMaxRunningRequests caps the requests running at once
// (--max-running-requests).
func WithMaxRunningRequests(n int) Option {
	return func(o *options) error {
		if err := containers.Positive("sglang.WithMaxRunningRequests", n); err != nil {
			return err
		}
		o.maxRunningRequests = n
		return nil
	}
}

// WithMaxPrefillTokens caps the tokens of one prefill batch, SGLang's
// batched-token budget for prompts (--max-prefill-tokens).
func WithMaxPrefillTokens(tokens int) Option {
	return func(o *options) error {
		if err := containers.Positive("sglang.WithMaxPrefillTokens", tokens); err != nil {
			return err
		}
		o.maxPrefillTokens = tokens
		return nil
	}
}

// WithChunkedPrefillSize sets the tokens of one chunk of a chunked prefill
// (--chunked-prefill-size); -1 disables chunking.
func WithChunkedPrefillSize(tokens int) Option {
	return func(o *options) error {
		if tokens == 0 || tokens < -1 {
			return fmt.Errorf("sglang.WithChunkedPrefillSize: must be positive or -1, got %d", tokens)
		}
		o.chunkedPrefillSize = tokens
		return nil
	}
}

// dtypes are the values SGLang's --dtype accepts.
var dtypes = map[string]bool{"auto": true, "half": true, "float16": true, "bfloat16": true, "float": true, "float32": true}

// WithDtype sets the weights' and activations' data type (--dtype): auto,
// half, float16, bfloat16, float or float32.
func WithDtype(dtype string) Option {
	return func(o *options) error {
		if !dtypes[dtype] {
			return fmt.Errorf("sglang.WithDtype: %q is not one of auto, half, float16, bfloat16, float, float32", dtype)
		}
		o.dtype = dtype
		return nil
	}
}

// WithTensorParallelSize shards the model over n GPUs (--tp-size).
func WithTensorParallelSize(n int) Option {
	return func(o *options) error {
		if err := containers.Positive("sglang.WithTensorParallelSize", n); err != nil {
			return err
		}
		o.tpSize = n
		return nil
	}
}

// WithMemFractionStatic sets the fraction of GPU memory for weights and KV
// cache (--mem-fraction-static), in (0, 1].
func WithMemFractionStatic(fraction float64) Option {
	return func(o *options) error {
		if fraction <= 0 || fraction > 1 {
			return fmt.Errorf("sglang.WithMemFractionStatic: %v is not in (0, 1]", fraction)
		}
		o.memFractionStatic = strconv.FormatFloat(fraction, 'f', -1, 64)
		return nil
	}
}

// args returns SGLang's arguments for o, in a fixed order. Metrics are
// always enabled: a benchmark wants the engine's own counters.
func (o options) args() []string {
	args := []string{"--model-path", o.modelPath}
	if o.servedModelName != "" {
		args = append(args, "--served-model-name", o.servedModelName)
	}
	intFlag := func(flag string, v int) {
		if v != 0 {
			args = append(args, flag, strconv.Itoa(v))
		}
	}
	intFlag("--context-length", o.contextLength)
	intFlag("--max-running-requests", o.maxRunningRequests)
	intFlag("--max-prefill-tokens", o.maxPrefillTokens)
	intFlag("--chunked-prefill-size", o.chunkedPrefillSize)
	if o.dtype != "" {
		args = append(args, "--dtype", o.dtype)
	}
	intFlag("--tp-size", o.tpSize)
	if o.memFractionStatic != "" {
		args = append(args, "--mem-fraction-static", o.memFractionStatic)
	}
	return append(args, "--enable-metrics")
}
