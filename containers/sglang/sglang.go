// Package sglang starts SGLang's server (image lmsysorg/sglang) as a
// container through testcontainers-go and gives back a ready
// containers.Engine.
//
// The container runs `python3 -m sglang.launch_server` with --model-path,
// the options' flags, --enable-metrics, --host and --port 30000 (SGLang's
// default), and waits for GET /health to answer 200. Prometheus metrics are
// at /metrics. The Hugging Face cache mounts at /root/.cache/huggingface
// (containers.WithModelCache) and the container shares the host's IPC
// namespace unless containers.WithShmSize is given, as SGLang's Docker guide
// asks.
//
// # Output length
//
// SGLang's OpenAI-compatible API accepts "ignore_eos": true and
// "min_tokens" as extra body fields; servebench sends both, with min_tokens
// equal to max_tokens, so the engine generates exactly max_tokens tokens
// (LengthControl).
package sglang

import (
	"context"
	"fmt"
	"strconv"

	"github.com/testcontainers/testcontainers-go"

	"github.com/servebench/servebench/containers"
	"github.com/servebench/servebench/containers/internal/module"
	"github.com/servebench/servebench/servebench/openai"
)

// Image is SGLang's image; pass it with a tag to Run.
const Image = "lmsysorg/sglang"

// Port is the port SGLang listens on inside the container.
const Port = 30000

// CachePath is where containers.WithModelCache mounts the Hugging Face
// cache.
const CachePath = "/root/.cache/huggingface"

// Program is the command that starts SGLang's server in the image.
var Program = []string{"python3", "-m", "sglang.launch_server"}

// Container is a running SGLang server. It embeds *module.Base, which
// embeds the testcontainers.Container and implements containers.Engine.
type Container struct {
	*module.Base
}

// A Container is a testcontainers.Container and a containers.Engine.
var (
	_ testcontainers.Container = (*Container)(nil)
	_ containers.Engine        = (*Container)(nil)
)

// LengthControl says how a forced output length reaches SGLang:
// openai.LengthIgnoreEOSMinTokens.
func LengthControl() openai.LengthControl {
	lc, _ := openai.LengthControlFor("sglang")
	return lc
}

// Run starts SGLang from img (e.g. "lmsysorg/sglang:v0.5.4") and waits until
// it serves. Options are sglang options (WithModel is required), the shared
// containers options and testcontainers options, which are applied last.
// Like testcontainers.Run, Run may return a container together with an
// error; terminate it in either case.
func Run(ctx context.Context, img string, opts ...testcontainers.ContainerCustomizer) (*Container, error) {
	plan, err := request(img, opts...)
	return module.RunModule(ctx, "sglang", plan, err, func(b *module.Base) *Container { return &Container{Base: b} })
}

// RunProcess starts sglang as a local process (python3 -m sglang.launch_server, or the executable
// containers.WithExecutable names) with the same engine arguments Run gives
// the container, listening on a free 127.0.0.1 port, and waits until it
// serves. Container-only settings (shared memory, IPC, host network) are
// refused. Shutdown the process in either case, as with Run.
func RunProcess(ctx context.Context, opts ...testcontainers.ContainerCustomizer) (*module.Process, error) {
	spec, s, err := engineSpec("", opts)
	return module.RunModuleProcess(ctx, "sglang", spec, s, err)
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
	model, ok := f.Get("--model-path")
	if !ok {
		return module.Spec{}, containers.Settings{}, fmt.Errorf("no model: pass sglang.WithModel")
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
		Process:  Program,
		CacheEnv: "HF_HOME",
		Kind:     "sglang",
		Image:    img,
		Program:  Program,
		Args:     append(f.Args(), "--enable-metrics"),
		Port:     Port,
		Listen: func(host string, port int) ([]string, map[string]string) {
			return []string{"--host", host, "--port", strconv.Itoa(port)}, nil
		},
		APIKey: func(key string) ([]string, map[string]string) {
			return []string{"--api-key", key}, nil
		},
		HealthPath:     "/health",
		MetricsPath:    "/metrics",
		CachePath:      CachePath,
		Model:          served,
		StartupTimeout: containers.DefaultModelStartupTimeout,
		IPCHost:        true,
	}
	return spec, s, nil
}
