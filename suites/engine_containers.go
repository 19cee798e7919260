package suites

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/testcontainers/testcontainers-go"

	"github.com/servebench/servebench/containers"
	"github.com/servebench/servebench/containers/llamacpp"
	"github.com/servebench/servebench/containers/sglang"
	"github.com/servebench/servebench/containers/tgi"
	"github.com/servebench/servebench/containers/vllm"
)

// The container engines, started through their testcontainers modules.
func init() {
	RegisterEngine("vllm", moduleStarter(
		func(ctx context.Context, s EngineSpec, opts []testcontainers.ContainerCustomizer) (containers.Engine, error) {
			return nilIfTyped(vllm.Run(ctx, s.Image, append(opts, vllm.WithModel(s.Model))...))
		},
		func(ctx context.Context, s EngineSpec, opts []testcontainers.ContainerCustomizer) (containers.Engine, error) {
			return nilIfTyped(vllm.RunProcess(ctx, append(opts, vllm.WithModel(s.Model))...))
		}))
	RegisterEngine("sglang", moduleStarter(
		func(ctx context.Context, s EngineSpec, opts []testcontainers.ContainerCustomizer) (containers.Engine, error) {
			return nilIfTyped(sglang.Run(ctx, s.Image, append(opts, sglang.WithModel(s.Model))...))
		},
		func(ctx context.Context, s EngineSpec, opts []testcontainers.ContainerCustomizer) (containers.Engine, error) {
			return nilIfTyped(sglang.RunProcess(ctx, append(opts, sglang.WithModel(s.Model))...))
		}))
	RegisterEngine("tgi", moduleStarter(
		func(ctx context.Context, s EngineSpec, opts []testcontainers.ContainerCustomizer) (containers.Engine, error) {
			return nilIfTyped(tgi.Run(ctx, s.Image, append(opts, tgi.WithModel(s.Model))...))
		},
		func(ctx context.Context, s EngineSpec, opts []testcontainers.ContainerCustomizer) (containers.Engine, error) {
			return nilIfTyped(tgi.RunProcess(ctx, append(opts, tgi.WithModel(s.Model))...))
		}))
	RegisterEngine("llamacpp", moduleStarter(
		func(ctx context.Context, s EngineSpec, opts []testcontainers.ContainerCustomizer) (containers.Engine, error) {
			return nilIfTyped(llamacpp.Run(ctx, s.Image, append(opts, llamacppModel(s.Model))...))
		},
		func(ctx context.Context, s EngineSpec, opts []testcontainers.ContainerCustomizer) (containers.Engine, error) {
			return nilIfTyped(llamacpp.RunProcess(ctx, append(opts, llamacppModel(s.Model))...))
		}))
	RegisterEngine("ollama", startOllama)
}

// llamacppModel reads a model ending in .gguf as a file, anything else as a
// Hugging Face repository.
func llamacppModel(model string) llamacpp.Option {
	if strings.HasSuffix(model, ".gguf") {
		return llamacpp.WithModelFile(model)
	}
	return llamacpp.WithHFRepo(model)
}

// runFunc starts one container engine with the shared options.
type runFunc func(ctx context.Context, spec EngineSpec, opts []testcontainers.ContainerCustomizer) (containers.Engine, error)

// containerStarter checks that Docker (and, when GPUs are requested, the
// NVIDIA runtime) is there, reporting ErrEngineUnavailable otherwise, and
// runs the engine with the spec's arguments, environment and GPUs.
func containerStarter(run runFunc) EngineStarter {
	return func(ctx context.Context, spec EngineSpec) (containers.Engine, error) {
		if reason := containers.DockerSkipReason(ctx); reason != "" {
			return nil, fmt.Errorf("%w: %s", ErrEngineUnavailable, reason)
		}
		var opts []testcontainers.ContainerCustomizer
		switch {
		case spec.GPUs < 0:
			opts = append(opts, containers.WithGPUs())
		case spec.GPUs > 0:
			ids := make([]string, spec.GPUs)
			for i := range ids {
				ids[i] = strconv.Itoa(i)
			}
			opts = append(opts, containers.WithGPUDeviceIDs(ids...))
		}
		if spec.GPUs != 0 {
			if reason := containers.GPUSkipReason(ctx); reason != "" {
				return nil, fmt.Errorf("%w: %s", ErrEngineUnavailable, reason)
			}
		}
		if len(spec.Args) > 0 {
			opts = append(opts, containers.WithExtraArgs(spec.Args...))
		}
		if len(spec.Env) > 0 {
			opts = append(opts, containers.WithEnv(spec.Env))
		}
		return run(ctx, spec, opts)
	}
}

// nilIfTyped turns a module's (*Container, error) into an Engine and the
// error, keeping a started container (to be terminated) and dropping a
// typed nil, which would otherwise be a non-nil interface.
func nilIfTyped[C interface {
	containers.Engine
	comparable
}](c C, err error) (containers.Engine, error) {
	var zero C
	if c == zero {
		return nil, err
	}
	return c, err
}
