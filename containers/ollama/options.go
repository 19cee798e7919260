package ollama

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/servebench/servebench/containers/internal/module"
	"github.com/testcontainers/testcontainers-go"
)

// Defaults of the Modelfile and the server.
const (
	// DefaultModelName is the name the model is created under.
	DefaultModelName = "tiny"
	// DefaultNumParallel is OLLAMA_NUM_PARALLEL: requests served at once.
	DefaultNumParallel = 4
	// DefaultNumThread is PARAMETER num_thread.
	DefaultNumThread = 1
	// DefaultNumPredict is PARAMETER num_predict, the output cap of a
	// request that sends no max_tokens.
	DefaultNumPredict = 256
	// DefaultTemplate is a plain prompt template: the system message, a
	// newline, the prompt; assistant turns of a chat follow their prompt.
	DefaultTemplate = "{{ if .System }}{{ .System }}\n{{ end }}{{ .Prompt }}{{ .Response }}"
)

// options are Ollama's own settings, read by Run and RunLocal.
type options struct {
	modelFile   string
	modelName   string
	template    string
	numParallel int
	numThread   int
	numPredict  int
	numCtx      int
	parameters  [][2]string
}

func defaults() options {
	return options{
		modelName:   DefaultModelName,
		template:    DefaultTemplate,
		numParallel: DefaultNumParallel,
		numThread:   DefaultNumThread,
		numPredict:  DefaultNumPredict,
	}
}

// Option is an Ollama setting. It satisfies
// testcontainers.ContainerCustomizer so that it can be passed to Run and
// RunLocal beside the shared containers options; its Customize does nothing.
type Option func(*options) error

// Customize implements testcontainers.ContainerCustomizer; Run reads the
// option itself.
func (o Option) Customize(*testcontainers.GenericContainerRequest) error { return nil }

// WithModelFile serves the GGUF file at this host path (required): the
// Modelfile says FROM it.
func WithModelFile(path string) Option {
	return func(o *options) error {
		if path == "" {
			return errors.New("ollama.WithModelFile: empty path")
		}
		abs, err := filepath.Abs(path)
		if err != nil {
			return fmt.Errorf("ollama.WithModelFile %q: %w", path, err)
		}
		o.modelFile = abs
		return nil
	}
}

// WithModelName sets the name the model is created under and requests use
// (default "tiny").
func WithModelName(name string) Option {
	return func(o *options) error {
		if name == "" || strings.ContainsAny(name, " \t\n") {
			return fmt.Errorf("ollama.WithModelName: %q is not a model name", name)
		}
		o.modelName = name
		return nil
	}
}

// WithTemplate replaces the Modelfile's TEMPLATE (a Go template over
// .System, .Prompt, .Response or .Messages, as Ollama documents).
func WithTemplate(tmpl string) Option {
	return func(o *options) error {
		if strings.Contains(tmpl, `"""`) {
			return errors.New(`ollama.WithTemplate: the template must not contain """`)
		}
		o.template = tmpl
		return nil
	}
}

// WithNumParallel sets OLLAMA_NUM_PARALLEL, the number of requests the
// model serves at once (default 4).
func WithNumParallel(n int) Option {
	return func(o *options) error {
		if err := module.Positive("ollama.WithNumParallel", n); err != nil {
			return err
		}
		o.numParallel = n
		return nil
	}
}

// WithNumThread sets PARAMETER num_thread, the CPU threads of the runner
// (default 1).
func WithNumThread(n int) Option {
	return func(o *options) error {
		if err := module.Positive("ollama.WithNumThread", n); err != nil {
			return err
		}
		o.numThread = n
		return nil
	}
}

// WithNumPredict sets PARAMETER num_predict, the output cap of requests
// that send no max_tokens (default 256).
func WithNumPredict(n int) Option {
	return func(o *options) error {
		if err := module.Positive("ollama.WithNumPredict", n); err != nil {
			return err
		}
		o.numPredict = n
		return nil
	}
}

// WithNumCtx sets PARAMETER num_ctx, the context window of each request;
// unset, Ollama chooses.
func WithNumCtx(n int) Option {
	return func(o *options) error {
		if err := module.Positive("ollama.WithNumCtx", n); err != nil {
			return err
		}
		o.numCtx = n
		return nil
	}
}

// WithParameter adds a PARAMETER line to the Modelfile (e.g. "temperature",
// "0"; "seed", "42"; "stop", "<|end|>").
func WithParameter(name, value string) Option {
	return func(o *options) error {
		if name == "" || strings.ContainsAny(name, " \t\n") || strings.Contains(value, "\n") {
			return fmt.Errorf("ollama.WithParameter(%q, %q): name must be one word and value one line", name, value)
		}
		o.parameters = append(o.parameters, [2]string{name, value})
		return nil
	}
}
