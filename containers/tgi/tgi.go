// Package tgi starts Hugging Face Text Generation Inference (image
// ghcr.io/huggingface/text-generation-inference) as a container through
// testcontainers-go and gives back a ready containers.Engine.
//
// The container runs the image's entrypoint (text-generation-launcher) with
// --model-id, the options' flags, --hostname and --port 80 (the port the
// image's own PORT variable sets), and waits for GET /health to answer 200:
// the launcher starts the HTTP router only after the shards have loaded the
// weights. Prometheus metrics are at /metrics on the same port and the
// version in GET /info. The image keeps its Hugging Face cache in /data
// (HF_HOME), where containers.WithModelCache mounts; /dev/shm defaults to
// 1 GiB as TGI's quick tour uses. The API key travels in the API_KEY
// environment variable, so it never appears on the command line.
//
// # Output length
//
// TGI offers no way to force an output length: its router always sets
// ignore_eos_token to false, and the OpenAI-compatible routes have no
// min_tokens. max_tokens is only a cap; the observed length comes from the
// response's usage (LengthControl returns openai.LengthUnsupported), and a
// workload that needs fixed lengths should say so in its report.
package tgi

import (
	"context"
	"fmt"
	"strconv"

	"github.com/testcontainers/testcontainers-go"

	"github.com/servebench/servebench/containers"
	"github.com/servebench/servebench/containers/internal/module"
	"github.com/servebench/servebench/servebench/openai"
)

// Image is TGI's image; pass it with a tag to Run.
const Image = "ghcr.io/huggingface/text-generation-inference"

// Port is the port TGI listens on inside the container.
const Port = 80

// CachePath is where containers.WithModelCache mounts the Hugging Face
// cache (the image sets HF_HOME=/data).
const CachePath = "/data"

// DefaultShmSize is the /dev/shm size TGI's quick tour gives the container.
const DefaultShmSize = 1 << 30

// Container is a running TGI server. It embeds *module.Base, which
// embeds the testcontainers.Container and implements containers.Engine.
type Container struct {
	*module.Base
}

// A Container is a testcontainers.Container and a containers.Engine.
var (
	_ testcontainers.Container = (*Container)(nil)
	_ containers.Engine        = (*Container)(nil)
)

// LengthControl says how a forced output length reaches TGI: it cannot,
// openai.LengthUnsupported.
func LengthControl() openai.LengthControl {
	lc, _ := openai.LengthControlFor("tgi")
	return lc
}

// Run starts TGI from img (e.g.
// "ghcr.io/huggingface/text-generation-inference:3.3.5") and waits until it
// serves. Options are tgi options (WithModel is required), the shared
// containers options and testcontainers options, which are applied last.
// Like testcontainers.Run, Run may return a container together with an
// error; terminate it in either case.
func Run(ctx context.Context, img string, opts ...testcontainers.ContainerCustomizer) (*Container, error) {
	plan, err := request(img, opts...)
	return module.RunModule(ctx, "tgi", plan, err, func(b *module.Base) *Container { return &Container{Base: b} })
}

// RunProcess starts tgi as a local process (text-generation-launcher, or the executable
// containers.WithExecutable names) with the same engine arguments Run gives
// the container, listening on a free 127.0.0.1 port, and waits until it
// serves. Container-only settings (shared memory, IPC, host network) are
// refused. Shutdown the process in either case, as with Run.
func RunProcess(ctx context.Context, opts ...testcontainers.ContainerCustomizer) (*module.Process, error) {
	spec, s, err := engineSpec("", opts)
	return module.RunModuleProcess(ctx, "tgi", spec, s, err)
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
	model, ok := f.Get("--model-id")
	if !ok {
		return module.Spec{}, containers.Settings{}, fmt.Errorf("no model: pass tgi.WithModel")
	}
	var s containers.Settings
	if err := module.ApplySettings(&s, opts); err != nil {
		return module.Spec{}, containers.Settings{}, err
	}
	spec := module.Spec{
		Process:  []string{"text-generation-launcher"},
		CacheEnv: "HF_HOME",
		Kind:     "tgi",
		Image:    img,
		Args:     f.Args(),
		Port:     Port,
		Listen: func(host string, port int) ([]string, map[string]string) {
			return []string{"--hostname", host, "--port", strconv.Itoa(port)}, nil
		},
		APIKey: func(key string) ([]string, map[string]string) {
			return nil, map[string]string{"API_KEY": key}
		},
		HealthPath:     "/health",
		MetricsPath:    "/metrics",
		VersionPath:    "/info",
		CachePath:      CachePath,
		Model:          model,
		StartupTimeout: containers.DefaultModelStartupTimeout,
		ShmSize:        DefaultShmSize,
	}
	return spec, s, nil
}
