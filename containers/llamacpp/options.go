package llamacpp

import (
	"errors"
	"strconv"

	"github.com/servebench/servebench/containers"
	"github.com/testcontainers/testcontainers-go"
)

// options are llama.cpp server's own settings, read by Run.
type options struct {
	modelFile string
	hfRepo    string
	alias     string
	ctxSize   int
	parallel  int
	batchSize int
	gpuLayers string
}

// Option is a llama.cpp server setting. It satisfies
// testcontainers.ContainerCustomizer so that it can be passed to Run beside
// the shared containers options; its Customize does nothing.
type Option func(*options) error

// Customize implements testcontainers.ContainerCustomizer; Run reads the
// option itself.
func (o Option) Customize(*testcontainers.GenericContainerRequest) error { return nil }

// WithModelFile serves the GGUF file at this path inside the container
// (--model); mount it with containers.WithModelCache or a testcontainers
// mount. Exactly one of WithModelFile and WithHFRepo is required.
func WithModelFile(path string) Option {
	return func(o *options) error {
		if path == "" {
			return errors.New("llamacpp.WithModelFile: empty path")
		}
		o.modelFile = path
		return nil
	}
}

// WithHFRepo serves a GGUF model from a Hugging Face repository,
// "<user>/<model>[:quant]" (--hf-repo), downloaded into the llama.cpp cache.
func WithHFRepo(repo string) Option {
	return func(o *options) error {
		if repo == "" {
			return errors.New("llamacpp.WithHFRepo: empty repository")
		}
		o.hfRepo = repo
		return nil
	}
}

// WithAlias sets the model name the server reports and clients put in
// requests (--alias); it defaults to the model file or repository.
func WithAlias(name string) Option {
	return func(o *options) error {
		if name == "" {
			return errors.New("llamacpp.WithAlias: empty name")
		}
		o.alias = name
		return nil
	}
}

// WithContextSize sets the context size in tokens (--ctx-size); with
// several slots it is shared among them.
func WithContextSize(tokens int) Option {
	return func(o *options) error {
		if err := containers.Positive("llamacpp.WithContextSize", tokens); err != nil {
			return err
		}
		o.ctxSize = tokens
		return nil
	}
}

// WithParallel sets the number of server slots, the sequences decoded at
// once (--parallel).
func WithParallel(slots int) Option {
	return func(o *options) error {
		if err := containers.Positive("llamacpp.WithParallel", slots); err != nil {
			return err
		}
		o.parallel = slots
		return nil
	}
}

// WithBatchSize sets the logical maximum batch size in tokens, the
// batched-token budget of one step (--batch-size).
func WithBatchSize(tokens int) Option {
	return func(o *options) error {
		if err := containers.Positive("llamacpp.WithBatchSize", tokens); err != nil {
			return err
		}
		o.batchSize = tokens
		return nil
	}
}

// WithGPULayers sets how many layers are offloaded to the GPU
// (--n-gpu-layers): a number, "auto" or "all". With GPUs and no
// WithGPULayers, Run offloads 99 layers as llama.cpp's Docker example does.
func WithGPULayers(layers string) Option {
	return func(o *options) error {
		if layers != "auto" && layers != "all" {
			n, err := strconv.Atoi(layers)
			if err != nil || n < 0 {
				return errors.New(`llamacpp.WithGPULayers: want a non-negative number, "auto" or "all", got "` + layers + `"`)
			}
		}
		o.gpuLayers = layers
		return nil
	}
}

// model returns the model reference: the file or the repository.
func (o options) model() string {
	if o.modelFile != "" {
		return o.modelFile
	}
	return o.hfRepo
}

// args returns llama-server's arguments for o, in a fixed order. The
// Prometheus endpoint is always enabled: a benchmark wants the engine's own
// counters.
func (o options) args(gpus bool) []string {
	var args []string
	if o.modelFile != "" {
		args = append(args, "--model", o.modelFile)
	} else {
		args = append(args, "--hf-repo", o.hfRepo)
	}
	alias := o.alias
	if alias == "" {
		alias = o.model()
	}
	args = append(args, "--alias", alias)
	intFlag := func(flag string, v int) {
		if v > 0 {
			args = append(args, flag, strconv.Itoa(v))
		}
	}
	intFlag("--ctx-size", o.ctxSize)
	intFlag("--parallel", o.parallel)
	intFlag("--batch-size", o.batchSize)
	switch {
	case o.gpuLayers != "":
		args = append(args, "--n-gpu-layers", o.gpuLayers)
	case gpus:
		args = append(args, "--n-gpu-layers", "99")
	}
	return append(args, "--metrics")
}
