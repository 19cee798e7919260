package suites

import (
	"context"
	"fmt"
	"maps"
	"os/exec"
	"strconv"
	"strings"
	"time"

	"github.com/testcontainers/testcontainers-go"

	"github.com/servebench/servebench/containers"
	"github.com/servebench/servebench/containers/ollama"
)

// moduleStarter starts an engine module's container, or its local process
// when the contract has a process section.
func moduleStarter(container, process runFunc) EngineStarter {
	startContainer := containerStarter(container)
	return func(ctx context.Context, spec EngineSpec) (containers.Engine, error) {
		if spec.Process == nil {
			return startContainer(ctx, spec)
		}
		return processStarter(process)(ctx, spec)
	}
}

// processStarter runs a local-process engine with the spec's arguments,
// environment and GPUs and the process section's binary, arguments and
// environment. A binary that is not there, or GPUs asked for that no
// telemetry source sees (CheckProcessGPUs), make the engine unavailable.
func processStarter(run runFunc) EngineStarter {
	return func(ctx context.Context, spec EngineSpec) (containers.Engine, error) {
		p := spec.Process
		if p == nil {
			p = &EngineProcess{}
		}
		if p.Binary != "" {
			if _, err := exec.LookPath(p.Binary); err != nil {
				return nil, fmt.Errorf("%w: %v", ErrEngineUnavailable, err)
			}
		}
		if err := CheckProcessGPUs(ctx, spec); err != nil {
			return nil, err
		}
		return run(ctx, spec, processOptions(spec, *p))
	}
}

// processOptions are the shared options of a process engine: engine
// arguments then process arguments, engine environment then process
// environment, the binary, and the GPUs (a count becomes
// CUDA_VISIBLE_DEVICES=0,…,n-1; all leaves the process every GPU).
func processOptions(spec EngineSpec, p EngineProcess) []testcontainers.ContainerCustomizer {
	var opts []testcontainers.ContainerCustomizer
	if p.Binary != "" {
		opts = append(opts, containers.WithExecutable(p.Binary))
	}
	if args := append(append([]string(nil), spec.Args...), p.Args...); len(args) > 0 {
		opts = append(opts, containers.WithExtraArgs(args...))
	}
	env := map[string]string{}
	maps.Copy(env, spec.Env)
	maps.Copy(env, p.Env)
	if len(env) > 0 {
		opts = append(opts, containers.WithEnv(env))
	}
	if spec.GPUs > 0 {
		opts = append(opts, containers.WithGPUDeviceIDs(strings.Split(deviceList(spec.GPUs), ",")...))
	}
	return opts
}

// deviceList returns the GPU indexes 0,…,n-1.
func deviceList(n int) string {
	ids := make([]string, n)
	for i := range ids {
		ids[i] = strconv.Itoa(i)
	}
	return strings.Join(ids, ",")
}

// startOllama starts Ollama serving the GGUF file engine.model: as a local
// process by default (the binary from the process section, else
// ollama.FindBinary), or as the container module when the contract gives
// an image and Docker is there.
func startOllama(ctx context.Context, spec EngineSpec) (containers.Engine, error) {
	model := ollama.WithModelFile(spec.Model)
	if spec.Image != "" && containers.DockerSkipReason(ctx) == "" {
		return containerStarter(func(ctx context.Context, s EngineSpec, opts []testcontainers.ContainerCustomizer) (containers.Engine, error) {
			return nilIfTyped(ollama.Run(ctx, s.Image, append(opts, model)...))
		})(ctx, spec)
	}
	if err := CheckProcessGPUs(ctx, spec); err != nil {
		return nil, err
	}
	p := EngineProcess{}
	if spec.Process != nil {
		p = *spec.Process
	}
	binary := p.Binary
	if binary == "" {
		found, err := ollama.FindBinary()
		if err != nil {
			return nil, fmt.Errorf("%w: %v", ErrEngineUnavailable, err)
		}
		binary = found
	}
	if _, err := exec.LookPath(binary); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrEngineUnavailable, err)
	}
	p.Binary = ""
	gpus := spec.GPUs
	spec.GPUs = 0 // a local Ollama takes no GPU option: it uses the GPUs it sees
	if gpus > 0 {
		p.Env = maps.Clone(p.Env)
		if p.Env == nil {
			p.Env = map[string]string{}
		}
		p.Env["CUDA_VISIBLE_DEVICES"] = deviceList(gpus)
	}
	opts := append(processOptions(spec, p), model)
	if deadline, ok := ctx.Deadline(); ok {
		opts = append(opts, containers.WithStartupTimeout(time.Until(deadline)))
	}
	return nilIfTyped(ollama.RunLocal(ctx, binary, opts...))
}
