// Package dockermodelrunner serves a model through Docker Model Runner, the
// model runner of Docker Desktop, started with testcontainers-go's official
// module (modules/dockermodelrunner): the module runs a socat container that
// forwards to the runner and pulls the model; servebench adds the engine's
// OpenAI-compatible base URL, readiness on its model list, the cold start
// and the engine identity for the report.
//
// It needs Docker Desktop with the model runner enabled and a model pull
// (for example "ai/smollm2:360M-Q4_K_M"); SkipReason says why a host cannot
// run it.
package dockermodelrunner

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/moby/moby/client"
	"github.com/testcontainers/testcontainers-go"
	tcdmr "github.com/testcontainers/testcontainers-go/modules/dockermodelrunner"

	"github.com/servebench/servebench/containers"
	"github.com/servebench/servebench/containers/internal/module"
)

// Kind is the engine kind in reports.
const Kind = "dockermodelrunner"

// Container is a ready Docker Model Runner endpoint.
type Container struct {
	*tcdmr.Container
	model     string
	baseURL   string
	coldStart time.Duration
}

var _ containers.Engine = (*Container)(nil)

// options are the module options Run passes on, with the model.
func options(model string, opts []testcontainers.ContainerCustomizer) ([]testcontainers.ContainerCustomizer, error) {
	if model == "" {
		return nil, fmt.Errorf("docker model runner: no model: give one to pull, such as ai/smollm2:360M-Q4_K_M")
	}
	return append([]testcontainers.ContainerCustomizer{tcdmr.WithModel(model)}, opts...), nil
}

// Run pulls model into Docker Model Runner through the official module and
// returns when the runner lists it. opts are testcontainers options for the
// module's socat container. Like testcontainers.Run it may return a
// container together with an error; shut it down in either case.
func Run(ctx context.Context, model string, opts ...testcontainers.ContainerCustomizer) (*Container, error) {
	all, err := options(model, opts)
	if err != nil {
		return nil, err
	}
	start := time.Now()
	ctr, err := tcdmr.Run(ctx, all...)
	if ctr == nil {
		return nil, fmt.Errorf("docker model runner: %w", err)
	}
	// The module's OpenAI endpoint is the runner's base + "/engines/v1";
	// servebench's client adds "/v1" itself.
	c := &Container{Container: ctr, model: model, baseURL: strings.TrimSuffix(ctr.Client.OpenAIEndpoint(), "/v1")}
	if err != nil {
		return c, fmt.Errorf("docker model runner: %w", err)
	}
	if _, err := module.ServedModel(ctx, c.baseURL, ""); err != nil {
		return c, fmt.Errorf("docker model runner: the OpenAI API at %s: %w", c.baseURL, err)
	}
	c.coldStart = time.Since(start)
	return c, nil
}

// Kind is "dockermodelrunner".
func (c *Container) Kind() string { return Kind }

// BaseURL is the OpenAI-compatible root (the runner's "/engines").
func (c *Container) BaseURL() string { return c.baseURL }

// Model is the pulled model, as requests name it.
func (c *Container) Model() string { return c.model }

// MetricsURL is empty: the runner exposes no Prometheus endpoint to the
// module's proxy.
func (c *Container) MetricsURL() string { return "" }

// ColdStart is the time from Run to the model listed, the pull included.
func (c *Container) ColdStart() time.Duration { return c.coldStart }

// Command is the proxy container's launch command.
func (c *Container) Command() []string {
	inspect, err := c.Container.Inspect(context.Background())
	if err != nil {
		return nil
	}
	return append([]string{inspect.Path}, inspect.Args...)
}

// Identity describes the engine for a report's experiment record.
func (c *Container) Identity() containers.Identity {
	return containers.Identity{Kind: Kind, Model: c.model}
}

// Shutdown removes the proxy container; the runner and its models stay
// with Docker Desktop. It is safe to call more than once.
func (c *Container) Shutdown(ctx context.Context) error {
	if c == nil || c.Container == nil {
		return nil
	}
	return testcontainers.TerminateContainer(c.Container)
}

// SkipReason says why Docker Model Runner cannot run here, or "" when the
// daemon is Docker Desktop (whose model runner the module reaches at
// model-runner.docker.internal).
func SkipReason(ctx context.Context) string {
	if r := containers.DockerSkipReason(ctx); r != "" {
		return r
	}
	provider, err := testcontainers.NewDockerProvider()
	if err != nil {
		return "Docker Model Runner: " + err.Error()
	}
	defer provider.Close()
	info, err := provider.Client().Info(ctx, client.InfoOptions{})
	if err != nil {
		return "Docker Model Runner: " + err.Error()
	}
	if os := info.Info.OperatingSystem; os != "Docker Desktop" {
		return fmt.Sprintf("Docker Model Runner needs Docker Desktop with the model runner enabled and a model pull; this daemon runs on %q", os)
	}
	return ""
}
