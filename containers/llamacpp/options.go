package llamacpp

import (
	"errors"
	"strconv"

	"github.com/servebench/servebench/containers/internal/module"
)

// Option is a llama.cpp server setting. It satisfies
// testcontainers.ContainerCustomizer so that it can be passed to Run beside
// the shared containers options.
type Option = module.FlagOption

// flags are llama-server's own flags, in the order they are written. The
// Prometheus endpoint is always enabled (--metrics, added by the module): a
// benchmark wants the engine's own counters.
var flags = module.FlagSet{Kind: "llamacpp", Order: []string{
	"--model", "--hf-repo", "--alias", "--ctx-size", "--parallel", "--batch-size", "--n-gpu-layers",
}}

// WithModelFile serves the GGUF file at this path inside the container
// (--model); mount it with containers.WithModelCache or a testcontainers
// mount. Exactly one of WithModelFile and WithHFRepo is required.
func WithModelFile(path string) Option { return flags.Text("WithModelFile", "--model", path) }

// WithHFRepo serves a GGUF model from a Hugging Face repository,
// "<user>/<model>[:quant]" (--hf-repo), downloaded into the llama.cpp cache.
func WithHFRepo(repo string) Option { return flags.Text("WithHFRepo", "--hf-repo", repo) }

// WithAlias sets the model name the server reports and clients put in
// requests (--alias); it defaults to the model file or repository.
func WithAlias(name string) Option { return flags.Text("WithAlias", "--alias", name) }

// WithContextSize sets the context size in tokens (--ctx-size); with
// several slots it is shared among them.
func WithContextSize(tokens int) Option {
	return flags.Positive("WithContextSize", "--ctx-size", tokens)
}

// WithParallel sets the number of server slots, the sequences decoded at
// once (--parallel).
func WithParallel(slots int) Option { return flags.Positive("WithParallel", "--parallel", slots) }

// WithBatchSize sets the logical maximum batch size in tokens, the
// batched-token budget of one step (--batch-size).
func WithBatchSize(tokens int) Option { return flags.Positive("WithBatchSize", "--batch-size", tokens) }

// WithGPULayers sets how many layers are offloaded to the GPU
// (--n-gpu-layers): a number, "auto" or "all". With GPUs and no
// WithGPULayers, Run offloads 99 layers as llama.cpp's Docker example does.
func WithGPULayers(layers string) Option {
	return flags.Checked("WithGPULayers", "--n-gpu-layers", layers, func(v string) error {
		if v == "auto" || v == "all" {
			return nil
		}
		if n, err := strconv.Atoi(v); err != nil || n < 0 {
			return errors.New(`want a non-negative number, "auto" or "all", got "` + v + `"`)
		}
		return nil
	})
}
