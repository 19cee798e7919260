package simengine

import (
	"fmt"
	"strconv"

	"github.com/servebench/servebench/containers/internal/module"
)

// Option is a simulated-engine setting. It satisfies
// testcontainers.ContainerCustomizer so that it can be passed to Run beside
// the shared containers options.
type Option = module.FlagOption

// flags are cmd/simengine's flags, in the order they are written, and the
// module's own settings (names without a dash: binary, bridge, keep-image).
var flags = module.FlagSet{Kind: "simengine", Order: []string{
	"-model", "-max-model-len", "-max-num-seqs", "-max-num-batched-tokens", "-time-scale", "-seed", "-log-requests",
}}

// Module settings, not engine flags.
const (
	settingBinary    = "binary"
	settingBridge    = "bridge"
	settingKeepImage = "keep-image"
)

// WithBinary uses an already built static Linux binary of cmd/simengine
// instead of running `go build` (see BuildBinary).
func WithBinary(path string) Option { return flags.Text("WithBinary", settingBinary, path) }

// WithBridgeNetwork runs the container on Docker's default bridge network
// with its port published on 127.0.0.1 (an ephemeral host port), instead of
// the default host network.
func WithBridgeNetwork() Option { return flags.Switch("WithBridgeNetwork", settingBridge) }

// WithKeepImage keeps the built image after the container stops, so that
// later runs with the same binary reuse it.
func WithKeepImage() Option { return flags.Switch("WithKeepImage", settingKeepImage) }

// WithModel sets the served model name (-model); without it the engine's
// default is read back from GET /v1/models.
func WithModel(name string) Option { return flags.Text("WithModel", "-model", name) }

// WithMaxModelLen sets the context limit, prompt plus output
// (-max-model-len).
func WithMaxModelLen(tokens int) Option {
	return flags.Positive("WithMaxModelLen", "-max-model-len", tokens)
}

// WithMaxNumSeqs caps the running batch (-max-num-seqs).
func WithMaxNumSeqs(n int) Option { return flags.Positive("WithMaxNumSeqs", "-max-num-seqs", n) }

// WithMaxNumBatchedTokens sets the token budget of one scheduler step
// (-max-num-batched-tokens).
func WithMaxNumBatchedTokens(tokens int) Option {
	return flags.Positive("WithMaxNumBatchedTokens", "-max-num-batched-tokens", tokens)
}

// WithTimeScale sets the wall-clock time per unit of model time
// (-time-scale); 0.1 runs the cost model ten times faster.
func WithTimeScale(scale float64) Option {
	return flags.Checked("WithTimeScale", "-time-scale", strconv.FormatFloat(scale, 'f', -1, 64), func(string) error {
		if scale <= 0 {
			return fmt.Errorf("must be positive, got %v", scale)
		}
		return nil
	})
}

// WithSeed sets the seed of output texts, lengths and fault draws (-seed).
func WithSeed(seed uint64) Option {
	return flags.Checked("WithSeed", "-seed", strconv.FormatUint(seed, 10), func(string) error { return nil })
}

// WithLogRequests makes the engine log one line per API request, never the
// prompt (-log-requests).
func WithLogRequests() Option { return flags.Switch("WithLogRequests", "-log-requests") }
