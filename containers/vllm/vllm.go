// Package vllm starts vLLM's OpenAI-compatible server (image
// vllm/vllm-openai) as a container through testcontainers-go and gives back a
// ready containers.Engine.
//
// The container runs the image's entrypoint (vllm serve) with --model, the
// options' flags, --host and --port, and waits for GET /health to answer 200
// (vLLM starts its HTTP server only once the weights are loaded). Prometheus
// metrics are at /metrics, the version at /version. The Hugging Face cache
// mounts at
// /root/.cache/huggingface (containers.WithModelCache) and the container
// shares the host's IPC namespace unless containers.WithShmSize is given, as
// vLLM's Docker guide asks for PyTorch's shared memory.
//
// # Output length
//
// vLLM generates exactly max_tokens tokens when the request body carries
// "ignore_eos": true; servebench also sends "min_tokens" equal to
// "max_tokens", which vLLM honours as a floor, so the length holds even
// where a stop string would end the text early (LengthControl).
package vllm

import (
	"context"
	"fmt"
	"strconv"

	"github.com/testcontainers/testcontainers-go"

	"github.com/servebench/servebench/containers"
	"github.com/servebench/servebench/containers/internal/module"
	"github.com/servebench/servebench/servebench/openai"
)

// Image is vLLM's OpenAI-compatible server image; pass it with a tag to Run.
const Image = "vllm/vllm-openai"

// Port is the port vLLM listens on inside the container.
const Port = 8000

// CachePath is where containers.WithModelCache mounts the Hugging Face
// cache.
const CachePath = "/root/.cache/huggingface"

// Container is a running vLLM server. It embeds *module.Base, which
// embeds the testcontainers.Container and implements containers.Engine.
type Container struct {
	*module.Base
}

// A Container is a testcontainers.Container and a containers.Engine.
var (
	_ testcontainers.Container = (*Container)(nil)
	_ containers.Engine        = (*Container)(nil)
)

// LengthControl says how a forced output length reaches vLLM:
// openai.LengthIgnoreEOSMinTokens.
func LengthControl() openai.LengthControl {
	lc, _ := openai.LengthControlFor("vllm")
	return lc
}

// Run starts vLLM from img (e.g. "vllm/vllm-openai:v0.11.0") and waits until
// it serves. Options are vllm options (WithModel is required), the shared
// containers options (WithGPUs, WithModelCache, …) and testcontainers
// options, which are applied last. The image must already be present or
// pullable. Like testcontainers.Run, Run may return a container together
// with an error; terminate it in either case.
func Run(ctx context.Context, img string, opts ...testcontainers.ContainerCustomizer) (*Container, error) {
	plan, err := request(img, opts...)
	return module.RunModule(ctx, "vllm", plan, err, func(b *module.Base) *Container { return &Container{Base: b} })
}

// RunProcess starts vllm as a local process (vllm serve, or the executable
// containers.WithExecutable names) with the same engine arguments Run gives
// the container, listening on a free 127.0.0.1 port, and waits until it
// serves. Container-only settings (shared memory, IPC, host network) are
// refused. Shutdown the process in either case, as with Run.
func RunProcess(ctx context.Context, opts ...testcontainers.ContainerCustomizer) (*module.Process, error) {
	spec, s, err := engineSpec("", opts)
	return module.RunModuleProcess(ctx, "vllm", spec, s, err)
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
	model, ok := f.Get("--model")
	if !ok {
		return module.Spec{}, containers.Settings{}, fmt.Errorf("no model: pass vllm.WithModel")
	}
	var s containers.Settings
	if err := module.ApplySettings(&s, opts); err != nil {
		return module.Spec{}, containers.Settings{}, err
	}
	served, ok := f.Get("--served-model-name")
	if !ok {
		served = model
	}
	spec := module.Spec{
		Process:  []string{"vllm", "serve"},
		CacheEnv: "HF_HOME",
		Kind:     "vllm",
		Image:    img,
		Args:     f.Args(),
		Port:     Port,
		Listen: func(host string, port int) ([]string, map[string]string) {
			return []string{"--host", host, "--port", strconv.Itoa(port)}, nil
		},
		APIKey: func(key string) ([]string, map[string]string) {
			return []string{"--api-key", key}, nil
		},
		HealthPath:     "/health",
		MetricsPath:    "/metrics",
		VersionPath:    "/version",
		CachePath:      CachePath,
		Model:          served,
		StartupTimeout: containers.DefaultModelStartupTimeout,
		IPCHost:        true,
	}
	return spec, s, nil
}
