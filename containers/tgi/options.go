package tgi

import (
	"errors"
	"fmt"
	"strconv"

	"github.com/servebench/servebench/containers"
	"github.com/testcontainers/testcontainers-go"
)

// options are TGI's own settings, read by Run.
type options struct {
	modelID               string
	maxInputTokens        int
	maxTotalTokens        int
	maxConcurrentRequests int
	maxBatchPrefillTokens int
	maxBatchTotalTokens   int
	dtype                 string
	numShard              int
}

// Option is a TGI setting. It satisfies testcontainers.ContainerCustomizer
// so that it can be passed to Run beside the shared containers options; its
// Customize does nothing.
type Option func(*options) error

// Customize implements testcontainers.ContainerCustomizer; Run reads the
// option itself.
func (o Option) Customize(*testcontainers.GenericContainerRequest) error { return nil }

// WithModel sets the Hugging Face model ID or the directory inside the
// container to serve (--model-id). Required. TGI serves it under that name.
func WithModel(model string) Option {
	return func(o *options) error {
		if model == "" {
			return errors.New("tgi.WithModel: empty model")
		}
		o.modelID = model
		return nil
	}
}

// WithMaxInputTokens caps a prompt's length (--max-input-tokens).
func WithMaxInputTokens(tokens int) Option {
	return func(o *options) error {
		if err := containers.Positive("tgi.WithMaxInputTokens", tokens); err != nil {
			return err
		}
		o.maxInputTokens = tokens
		return nil
	}
}

// WithMaxTotalTokens sets the context length of one request, prompt plus
// output (--max-total-tokens).
func WithMaxTotalTokens(tokens int) Option {
	return func(o *options) error {
		if err := containers.Positive("tgi.WithMaxTotalTokens", tokens); err != nil {
			return err
		}
		o.maxTotalTokens = tokens
		return nil
	}
}

// WithMaxConcurrentRequests caps the requests admitted at once; beyond it
// TGI refuses requests (--max-concurrent-requests).
func WithMaxConcurrentRequests(n int) Option {
	return func(o *options) error {
		if err := containers.Positive("tgi.WithMaxConcurrentRequests", n); err != nil {
			return err
		}
		o.maxConcurrentRequests = n
		return nil
	}
}

// WithMaxBatchPrefillTokens caps the tokens of one prefill operation, TGI's
// batched-token budget for prompts (--max-batch-prefill-tokens).
func WithMaxBatchPrefillTokens(tokens int) Option {
	return func(o *options) error {
		if err := containers.Positive("tgi.WithMaxBatchPrefillTokens", tokens); err != nil {
			return err
		}
		o.maxBatchPrefillTokens = tokens
		return nil
	}
}

// WithMaxBatchTotalTokens caps the tokens of all requests in a batch
// (--max-batch-total-tokens).
func WithMaxBatchTotalTokens(tokens int) Option {
	return func(o *options) error {
		if err := containers.Positive("tgi.WithMaxBatchTotalTokens", tokens); err != nil {
			return err
		}
		o.maxBatchTotalTokens = tokens
		return nil
	}
}

// WithDtype forces the model's data type (--dtype): float16 or bfloat16.
func WithDtype(dtype string) Option {
	return func(o *options) error {
		if dtype != "float16" && dtype != "bfloat16" {
			return fmt.Errorf("tgi.WithDtype: %q is not one of float16, bfloat16", dtype)
		}
		o.dtype = dtype
		return nil
	}
}

// WithNumShard shards the model over n GPUs, TGI's tensor parallelism
// (--num-shard).
func WithNumShard(n int) Option {
	return func(o *options) error {
		if err := containers.Positive("tgi.WithNumShard", n); err != nil {
			return err
		}
		o.numShard = n
		return nil
	}
}

// args returns TGI's arguments for o, in a fixed order.
func (o options) args() []string {
	args := []string{"--model-id", o.modelID}
	intFlag := func(flag string, v int) {
		if v > 0 {
			args = append(args, flag, strconv.Itoa(v))
		}
	}
	intFlag("--max-input-tokens", o.maxInputTokens)
	intFlag("--max-total-tokens", o.maxTotalTokens)
	intFlag("--max-concurrent-requests", o.maxConcurrentRequests)
	intFlag("--max-batch-prefill-tokens", o.maxBatchPrefillTokens)
	intFlag("--max-batch-total-tokens", o.maxBatchTotalTokens)
	if o.dtype != "" {
		args = append(args, "--dtype", o.dtype)
	}
	intFlag("--num-shard", o.numShard)
	return args
}
