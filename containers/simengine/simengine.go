// Package simengine runs the repository's simulated inference engine
// (cmd/simengine) as a container, built at test time into a FROM scratch
// image from an in-memory build context: nothing is pulled, so the whole
// container path (build, start, readiness, logs, terminate) runs in CI
// without a registry or a GPU.
//
// Run compiles cmd/simengine with CGO_ENABLED=0 into a temporary directory
// (or takes WithBinary), builds the image from Dockerfile plus the binary,
// and starts it. By default the container shares the host's network and the
// engine listens on a free 127.0.0.1 port given in SIMENGINE_ADDR, so no
// traffic leaves the loopback interface; WithBridgeNetwork publishes the port
// on 127.0.0.1 from Docker's default bridge instead. Readiness is GET /health
// answering 200; metrics are at /metrics, the version at /version; the
// served model name is WithModel's or, without it, read from GET /v1/models.
//
// # Output length
//
// The simulated engine honours "ignore_eos": true by generating exactly
// max_tokens tokens (LengthControl).
package simengine

import (
	"context"
	"fmt"
	"os"

	"github.com/testcontainers/testcontainers-go"

	"github.com/servebench/servebench/containers"
	"github.com/servebench/servebench/containers/internal/module"
	"github.com/servebench/servebench/servebench/openai"
)

// Port is the port the engine listens on inside the container on the bridge
// network.
const Port = 8000

// EnvAddr is the environment variable the engine reads its listen address
// from (default 127.0.0.1:8000).
const EnvAddr = "SIMENGINE_ADDR"

// ImageRepo is the repository name of the built image; its tag is a hash of
// the binary.
const ImageRepo = "servebench-simengine"

// Container is a running simulated engine. It embeds *module.Base, which
// embeds the testcontainers.Container and implements containers.Engine.
type Container struct {
	*module.Base
}

// A Container is a testcontainers.Container and a containers.Engine.
var (
	_ testcontainers.Container = (*Container)(nil)
	_ containers.Engine        = (*Container)(nil)
)

// LengthControl says how a forced output length reaches the simulated
// engine:
// openai.LengthIgnoreEOS.
func LengthControl() openai.LengthControl {
	lc, _ := openai.LengthControlFor("simengine")
	return lc
}

// Run builds the simulated engine's image and starts it. Options are
// simengine options, the shared containers options (WithEnv, WithExtraArgs
// for any other engine flag, WithStartupTimeout, WithHostNetwork; the engine
// has no API key, model cache or GPU use) and testcontainers options, applied
// last. Like testcontainers.Run, Run may return a container
// together with an error; terminate it in either case.
func Run(ctx context.Context, opts ...testcontainers.ContainerCustomizer) (*Container, error) {
	f, err := flags.Collect(opts)
	if err != nil {
		return nil, fmt.Errorf("run simengine: %w", err)
	}
	if !f.Has(settingBinary) {
		dir, err := os.MkdirTemp("", "simengine-build-")
		if err != nil {
			return nil, fmt.Errorf("run simengine: %w", err)
		}
		defer os.RemoveAll(dir)
		bin, err := BuildBinary(ctx, Package, dir)
		if err != nil {
			return nil, fmt.Errorf("run simengine: %w", err)
		}
		opts = append(opts, WithBinary(bin))
	}
	plan, err := request(opts...)
	return module.RunModule(ctx, "simengine", plan, err, func(b *module.Base) *Container { return &Container{Base: b} })
}

// request assembles the container request Run would start from an already
// built binary (WithBinary is required here).
func request(opts ...testcontainers.ContainerCustomizer) (module.Plan, error) {
	f, err := flags.Collect(opts)
	if err != nil {
		return module.Plan{}, err
	}
	binary, ok := f.Get(settingBinary)
	if !ok {
		return module.Plan{}, fmt.Errorf("no binary: pass simengine.WithBinary")
	}
	bridge := f.Has(settingBridge)
	s := containers.Settings{HostNetwork: !bridge}
	if err := module.ApplySettings(&s, opts); err != nil {
		return module.Plan{}, err
	}
	if bridge && s.HostNetwork {
		return module.Plan{}, fmt.Errorf("simengine.WithBridgeNetwork and containers.WithHostNetwork contradict each other")
	}
	bin, err := os.ReadFile(binary)
	if err != nil {
		return module.Plan{}, fmt.Errorf("read binary: %w", err)
	}
	archive, tag, err := BuildContext(bin)
	if err != nil {
		return module.Plan{}, err
	}
	spec := module.Spec{
		Kind: "simengine",
		Build: &testcontainers.FromDockerfile{
			ContextArchive: bytesReader(archive),
			Dockerfile:     "Dockerfile",
			Repo:           ImageRepo,
			Tag:            tag,
			KeepImage:      f.Has(settingKeepImage),
		},
		Args: f.Args(),
		Port: Port,
		Listen: func(host string, port int) ([]string, map[string]string) {
			return nil, map[string]string{EnvAddr: fmt.Sprintf("%s:%d", host, port)}
		},
		HealthPath:     "/health",
		MetricsPath:    "/metrics",
		VersionPath:    "/version",
		Model:          model(f),
		StartupTimeout: containers.DefaultStartupTimeout,
	}
	return module.Assemble(spec, s, opts)
}

// model returns the served model name the options set; empty asks Start to
// read it from GET /v1/models.
func model(f module.Flags) string {
	m, _ := f.Get("-model")
	return m
}
