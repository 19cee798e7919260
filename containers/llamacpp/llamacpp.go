// Package llamacpp starts llama.cpp's HTTP server (image
// ghcr.io/ggml-org/llama.cpp, tag "server" for CPUs or "server-cuda" for
// NVIDIA GPUs) as a container through testcontainers-go and gives back a
// ready containers.Engine.
//
// The container runs the image's entrypoint (llama-server) with --model or
// --hf-repo, --alias, the options' flags, --metrics, --host and --port 8080,
// and waits for GET /health to answer 200 (it answers 503 while the model
// loads). Prometheus metrics are at /metrics. Models downloaded with
// --hf-repo go to LLAMA_CACHE, /root/.cache/llama.cpp, where
// containers.WithModelCache mounts. The API key travels in LLAMA_API_KEY, so
// it never appears on the command line. llama.cpp has no dtype (the GGUF
// file fixes it) and splits a model over GPUs by layers (--split-mode,
// --tensor-split through containers.WithExtraArgs) rather than by tensor
// parallelism.
//
// # Output length
//
// llama-server's OpenAI-compatible routes accept its native "ignore_eos":
// true, which with max_tokens makes it generate exactly max_tokens tokens;
// it has no min_tokens (LengthControl).
package llamacpp

import (
	"context"
	"fmt"
	"strconv"

	"github.com/testcontainers/testcontainers-go"

	"github.com/servebench/servebench/containers"
	"github.com/servebench/servebench/containers/internal/module"
	"github.com/servebench/servebench/servebench/openai"
)

// Image is llama.cpp's image repository; use the tag "server" (CPU) or
// "server-cuda" (NVIDIA GPUs).
const Image = "ghcr.io/ggml-org/llama.cpp"

// Port is the port llama-server listens on inside the container.
const Port = 8080

// CachePath is llama.cpp's model cache in the container (LLAMA_CACHE), where
// containers.WithModelCache mounts.
const CachePath = "/root/.cache/llama.cpp"

// Container is a running llama.cpp server. It embeds *module.Base,
// which embeds the testcontainers.Container and implements
// containers.Engine.
type Container struct {
	*module.Base
}

// A Container is a testcontainers.Container and a containers.Engine.
var (
	_ testcontainers.Container = (*Container)(nil)
	_ containers.Engine        = (*Container)(nil)
)

// LengthControl says how a forced output length reaches llama.cpp:
// openai.LengthIgnoreEOS.
func LengthControl() openai.LengthControl {
	lc, _ := openai.LengthControlFor("llamacpp")
	return lc
}

// Run starts llama.cpp's server from img (e.g.
// "ghcr.io/ggml-org/llama.cpp:server") and waits until it serves. Options
// are llamacpp options (WithModelFile or WithHFRepo is required), the shared
// containers options and testcontainers options, which are applied last.
// Like testcontainers.Run, Run may return a container together with an
// error; terminate it in either case.
func Run(ctx context.Context, img string, opts ...testcontainers.ContainerCustomizer) (*Container, error) {
	plan, err := request(img, opts...)
	return module.RunModule(ctx, "llamacpp", plan, err, func(b *module.Base) *Container { return &Container{Base: b} })
}

// RunProcess starts llamacpp as a local process (llama-server, or the executable
// containers.WithExecutable names) with the same engine arguments Run gives
// the container, listening on a free 127.0.0.1 port, and waits until it
// serves. Container-only settings (shared memory, IPC, host network) are
// refused. Shutdown the process in either case, as with Run.
func RunProcess(ctx context.Context, opts ...testcontainers.ContainerCustomizer) (*module.Process, error) {
	spec, s, err := engineSpec("", opts)
	return module.RunModuleProcess(ctx, "llamacpp", spec, s, err)
}

// request assembles the container request Run would start.
func request(img string, opts ...testcontainers.ContainerCustomizer) (module.Plan, error) {
	spec, s, err := engineSpec(img, opts)
	if err != nil {
		return module.Plan{}, err
	}
	return module.Assemble(spec, s, opts)
}

// engineSpec reads the options into the engine's launch description, shared
// by the container (request) and the local process (RunProcess).
func engineSpec(img string, opts []testcontainers.ContainerCustomizer) (module.Spec, containers.Settings, error) {
	f, err := flags.Collect(opts)
	if err != nil {
		return module.Spec{}, containers.Settings{}, err
	}
	file, hasFile := f.Get("--model")
	repo, hasRepo := f.Get("--hf-repo")
	switch {
	case !hasFile && !hasRepo:
		return module.Spec{}, containers.Settings{}, fmt.Errorf("no model: pass llamacpp.WithModelFile or llamacpp.WithHFRepo")
	case hasFile && hasRepo:
		return module.Spec{}, containers.Settings{}, fmt.Errorf("llamacpp.WithModelFile and llamacpp.WithHFRepo both given; pass one")
	}
	var s containers.Settings
	if err := module.ApplySettings(&s, opts); err != nil {
		return module.Spec{}, containers.Settings{}, err
	}
	alias, ok := f.Get("--alias")
	if !ok {
		alias = file + repo
		opts = append(opts, WithAlias(alias))
	}
	if s.GPUs != nil && !f.Has("--n-gpu-layers") {
		opts = append(opts, WithGPULayers("99"))
	}
	if f, err = flags.Collect(opts); err != nil {
		return module.Spec{}, containers.Settings{}, err
	}
	spec := module.Spec{
		Process:  []string{"llama-server"},
		CacheEnv: "LLAMA_CACHE",
		Kind:     "llamacpp",
		Image:    img,
		Args:     append(f.Args(), "--metrics"),
		Env:      map[string]string{"LLAMA_CACHE": CachePath},
		Port:     Port,
		Listen: func(host string, port int) ([]string, map[string]string) {
			return []string{"--host", host, "--port", strconv.Itoa(port)}, nil
		},
		APIKey: func(key string) ([]string, map[string]string) {
			return nil, map[string]string{"LLAMA_API_KEY": key}
		},
		HealthPath:     "/health",
		MetricsPath:    "/metrics",
		CachePath:      CachePath,
		Model:          alias,
		StartupTimeout: containers.DefaultModelStartupTimeout,
	}
	return spec, s, nil
}
