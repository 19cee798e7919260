package ollama

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/servebench/servebench/containers"
	"github.com/servebench/servebench/containers/internal/module"
	"github.com/testcontainers/testcontainers-go"
	tcexec "github.com/testcontainers/testcontainers-go/exec"
)

// Image is Ollama's image repository; pin a tag, e.g. "ollama/ollama:0.17.4".
const Image = "ollama/ollama"

// Port is the port Ollama listens on inside the container.
const Port = 11434

// ModelsPath is OLLAMA_MODELS in the container, where
// containers.WithModelCache mounts.
const ModelsPath = "/root/.ollama/models"

// Paths of the files copied into the container before it starts.
const (
	ContainerModelFile = "/servebench/model.gguf"
	ContainerModelfile = "/servebench/Modelfile"
)

// Container is a running Ollama container. It embeds *module.Base,
// which embeds the testcontainers.Container and implements
// containers.Engine.
type Container struct {
	*module.Base

	modelfile string
	version   string
	coldStart time.Duration
}

// Run starts Ollama from img (e.g. "ollama/ollama:0.17.4"), copies the GGUF
// file and the Modelfile into it, waits until GET / answers, creates the
// model with `ollama create` inside the container, loads it, and returns
// when it serves.
//
// Options are ollama options (WithModelFile is required), the shared
// containers options (WithGPUs, WithModelCache mounted at ModelsPath,
// WithEnv, WithExtraArgs after "serve", WithStartupTimeout, WithHostNetwork,
// WithLogBuffer; WithAPIKey is an error: Ollama has none) and testcontainers
// options, applied last. Like testcontainers.Run, Run may return a container
// together with an error; terminate it in either case.
func Run(ctx context.Context, img string, opts ...testcontainers.ContainerCustomizer) (*Container, error) {
	plan, o, err := request(img, opts...)
	if err != nil {
		return nil, fmt.Errorf("run ollama: %w", err)
	}
	timeout := containers.DefaultStartupTimeout
	var s containers.Settings
	if err := module.ApplySettings(&s, opts); err == nil && s.StartupTimeout > 0 {
		timeout = s.StartupTimeout
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()

	base, err := module.StartWith(ctx, plan, officialRun)
	var c *Container
	if base != nil {
		c = &Container{Base: base, modelfile: modelfile(ContainerModelFile, o)}
	}
	if err != nil {
		return c, fmt.Errorf("run ollama: %w", err)
	}
	// The container's cold start (start to health) is measured by Start;
	// model creation and load follow it.
	created := time.Now()
	code, out, err := base.Exec(ctx, []string{"ollama", "create", o.modelName, "-f", ContainerModelfile}, tcexec.Multiplexed())
	if err == nil && code != 0 {
		text, _ := io.ReadAll(out)
		err = fmt.Errorf("exit code %d: %s", code, lastLines(string(text), 20))
	}
	if err != nil {
		return c, fmt.Errorf("run ollama: ollama create %s in the container: %w", o.modelName, err)
	}
	if err := Preload(ctx, base.BaseURL(), o.modelName); err != nil {
		return c, fmt.Errorf("run ollama: load %s: %w\nlast engine output:\n%s", o.modelName, err, lastLines(base.LogTail(), 40))
	}
	c.coldStart = base.ColdStart() + time.Since(created)
	if v, err := Version(ctx, base.BaseURL()); err == nil {
		c.version = v
	}
	return c, nil
}

// request assembles the container request Run would start.
func request(img string, opts ...testcontainers.ContainerCustomizer) (module.Plan, options, error) {
	o := defaults()
	if err := module.Collect[Option](&o, opts); err != nil {
		return module.Plan{}, o, err
	}
	if o.modelFile == "" {
		return module.Plan{}, o, errors.New("no model: pass ollama.WithModelFile")
	}
	var s containers.Settings
	if err := module.ApplySettings(&s, opts); err != nil {
		return module.Plan{}, o, err
	}
	env := serverEnv(o)
	env["OLLAMA_MODELS"] = ModelsPath
	spec := module.Spec{
		Kind:  "ollama",
		Image: img,
		Args:  []string{"serve"},
		Env:   env,
		Port:  Port,
		Listen: func(host string, port int) ([]string, map[string]string) {
			return nil, map[string]string{"OLLAMA_HOST": fmt.Sprintf("%s:%d", host, port)}
		},
		HealthPath:     HealthPath,
		CachePath:      ModelsPath,
		Model:          o.modelName,
		StartupTimeout: containers.DefaultStartupTimeout,
	}
	plan, err := module.Assemble(spec, s, opts)
	if err != nil {
		return plan, o, err
	}
	plan.Request.Files = append(plan.Request.Files,
		testcontainers.ContainerFile{HostFilePath: o.modelFile, ContainerFilePath: ContainerModelFile, FileMode: 0o644},
		testcontainers.ContainerFile{Reader: strings.NewReader(modelfile(ContainerModelFile, o)), ContainerFilePath: ContainerModelfile, FileMode: 0o644},
	)
	return plan, o, nil
}

// ColdStart is the time from the container start to the model loaded:
// server readiness (as module.Base measures it), then model creation
// and load. An image build before the start is not included.
func (c *Container) ColdStart() time.Duration { return c.coldStart }

// Modelfile is the Modelfile the model was created from.
func (c *Container) Modelfile() string { return c.modelfile }

// Identity describes the engine for a report's experiment record, with the
// version the server reports.
func (c *Container) Identity() containers.Identity {
	id := c.Base.Identity()
	id.Version = c.version
	return id
}
