package simengine

import (
	"errors"
	"fmt"
	"strconv"

	"github.com/servebench/servebench/containers"
	"github.com/testcontainers/testcontainers-go"
)

// options are the simulated engine module's own settings, read by Run.
type options struct {
	binary    string
	bridge    bool
	keepImage bool

	model               string
	maxModelLen         int
	maxNumSeqs          int
	maxNumBatchedTokens int
	timeScale           string
	seed                string
	logRequests         bool
}

// Option is a setting of the simulated engine module. It satisfies
// testcontainers.ContainerCustomizer so that it can be passed to Run beside
// the shared containers options; its Customize does nothing.
type Option func(*options) error

// Customize implements testcontainers.ContainerCustomizer; Run reads the
// option itself.
func (o Option) Customize(*testcontainers.GenericContainerRequest) error { return nil }

// WithBinary uses an already built static Linux binary of cmd/simengine
// instead of running `go build` (see BuildBinary).
func WithBinary(path string) Option {
	return func(o *options) error {
		if path == "" {
			return errors.New("simengine.WithBinary: empty path")
		}
		o.binary = path
		return nil
	}
}

// WithBridgeNetwork runs the container on Docker's default bridge network
// with its port published on 127.0.0.1 (an ephemeral host port), instead of
// the default host network.
func WithBridgeNetwork() Option {
	return func(o *options) error {
		o.bridge = true
		return nil
	}
}

// WithKeepImage keeps the built image after Terminate, so that later runs
// with the same binary reuse it.
func WithKeepImage() Option {
	return func(o *options) error {
		o.keepImage = true
		return nil
	}
}

// WithModel sets the served model name (-model); without it the engine's
// default is read back from GET /v1/models.
func WithModel(name string) Option {
	return func(o *options) error {
		if name == "" {
			return errors.New("simengine.WithModel: empty name")
		}
		o.model = name
		return nil
	}
}

// WithMaxModelLen sets the context limit, prompt plus output
// (-max-model-len).
func WithMaxModelLen(tokens int) Option {
	return func(o *options) error {
		if err := containers.Positive("simengine.WithMaxModelLen", tokens); err != nil {
			return err
		}
		o.maxModelLen = tokens
		return nil
	}
}

// WithMaxNumSeqs caps the running batch (-max-num-seqs).
func WithMaxNumSeqs(n int) Option {
	return func(o *options) error {
		if err := containers.Positive("simengine.WithMaxNumSeqs", n); err != nil {
			return err
		}
		o.maxNumSeqs = n
		return nil
	}
}

// WithMaxNumBatchedTokens sets the token budget of one scheduler step
// (-max-num-batched-tokens).
func WithMaxNumBatchedTokens(tokens int) Option {
	return func(o *options) error {
		if err := containers.Positive("simengine.WithMaxNumBatchedTokens", tokens); err != nil {
			return err
		}
		o.maxNumBatchedTokens = tokens
		return nil
	}
}

// WithTimeScale sets the wall-clock time per unit of model time
// (-time-scale); 0.1 runs the cost model ten times faster.
func WithTimeScale(scale float64) Option {
	return func(o *options) error {
		if scale <= 0 {
			return fmt.Errorf("simengine.WithTimeScale: must be positive, got %v", scale)
		}
		o.timeScale = strconv.FormatFloat(scale, 'f', -1, 64)
		return nil
	}
}

// WithSeed sets the seed of output texts, lengths and fault draws (-seed).
func WithSeed(seed uint64) Option {
	return func(o *options) error {
		o.seed = strconv.FormatUint(seed, 10)
		return nil
	}
}

// WithLogRequests makes the engine log one line per API request, never the
// prompt (-log-requests).
func WithLogRequests() Option {
	return func(o *options) error {
		o.logRequests = true
		return nil
	}
}

// args returns the engine's flags for o, in a fixed order.
func (o options) args() []string {
	var args []string
	if o.model != "" {
		args = append(args, "-model", o.model)
	}
	intFlag := func(flag string, v int) {
		if v > 0 {
			args = append(args, flag, strconv.Itoa(v))
		}
	}
	intFlag("-max-model-len", o.maxModelLen)
	intFlag("-max-num-seqs", o.maxNumSeqs)
	intFlag("-max-num-batched-tokens", o.maxNumBatchedTokens)
	if o.timeScale != "" {
		args = append(args, "-time-scale", o.timeScale)
	}
	if o.seed != "" {
		args = append(args, "-seed", o.seed)
	}
	if o.logRequests {
		args = append(args, "-log-requests")
	}
	return args
}
