package ollama

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/testcontainers/testcontainers-go"

	"github.com/servebench/servebench/containers"
	"github.com/servebench/servebench/containers/internal/module"
	"github.com/servebench/servebench/servebench/openai"
)

// Local is Ollama running as a local process on 127.0.0.1. It embeds
// *module.Process and implements containers.Engine.
type Local struct {
	*module.Process

	dir       string
	modelfile string
	version   string
	coldStart time.Duration
}

var _ containers.Engine = (*Local)(nil)

// LengthControl says how a forced output length reaches Ollama: it cannot
// (openai.LengthUnsupported); see the package documentation.
func LengthControl() openai.LengthControl {
	lc, _ := openai.LengthControlFor("ollama")
	return lc
}

// RunLocal starts `<binary> serve` on a free 127.0.0.1 port, creates the
// model with `<binary> create` from a generated Modelfile, loads it, and
// returns when it serves. An empty binary means FindBinary's choice.
//
// Options are ollama options (WithModelFile is required), and of the shared
// containers options WithEnv, WithExtraArgs (after "serve"),
// WithStartupTimeout (bounding start, create and load together; default one
// minute), WithLogBuffer and WithModelCache (used as OLLAMA_MODELS instead of
// a temporary directory). Options that only mean something for a container
// (GPUs, shared memory, IPC, host network) and WithAPIKey (Ollama has none)
// are errors. Other testcontainers options are ignored.
//
// Like Run, RunLocal may return a Local together with an error; terminating
// it is always safe.
func RunLocal(ctx context.Context, binary string, opts ...testcontainers.ContainerCustomizer) (*Local, error) {
	l, err := runLocal(ctx, binary, opts)
	if err != nil {
		err = fmt.Errorf("run ollama locally: %w", err)
	}
	return l, err
}

func runLocal(ctx context.Context, binary string, opts []testcontainers.ContainerCustomizer) (*Local, error) {
	o := defaults()
	if err := module.Collect[Option](&o, opts); err != nil {
		return nil, err
	}
	if o.modelFile == "" {
		return nil, errors.New("no model: pass ollama.WithModelFile")
	}
	if _, err := os.Stat(o.modelFile); err != nil {
		return nil, fmt.Errorf("model file: %w", err)
	}
	var s containers.Settings
	if err := module.ApplySettings(&s, opts); err != nil {
		return nil, err
	}
	if err := localSettingsSupported(s); err != nil {
		return nil, err
	}
	if binary == "" {
		found, err := FindBinary()
		if err != nil {
			return nil, err
		}
		binary = found
	}
	resolved, err := exec.LookPath(binary)
	if err != nil {
		return nil, err
	}

	dir, err := os.MkdirTemp("", "servebench-ollama-")
	if err != nil {
		return nil, err
	}
	l := &Local{dir: dir, modelfile: modelfile(o.modelFile, o)}
	fail := func(err error) (*Local, error) {
		if l.Process == nil {
			os.RemoveAll(dir)
			return nil, err
		}
		return l, err
	}
	models := s.ModelCacheDir
	if models == "" {
		models = filepath.Join(dir, "models")
	}
	modelfilePath := filepath.Join(dir, "Modelfile")
	if err := os.WriteFile(modelfilePath, []byte(l.modelfile), 0o644); err != nil {
		return fail(err)
	}

	timeout := s.StartupTimeout
	if timeout <= 0 {
		timeout = containers.DefaultStartupTimeout
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()

	env := serverEnv(o)
	env["OLLAMA_MODELS"] = models
	maps.Copy(env, s.Env)
	var host string
	started := time.Now()
	p, err := module.StartProcess(ctx, module.ProcessSpec{
		Kind:   "ollama",
		Binary: resolved,
		Args:   append([]string{"serve"}, s.ExtraArgs...),
		Env:    env,
		Listen: func(h string, port int) ([]string, map[string]string) {
			host = fmt.Sprintf("%s:%d", h, port)
			return nil, map[string]string{"OLLAMA_HOST": host}
		},
		HealthPath:     HealthPath,
		Model:          o.modelName,
		StartupTimeout: timeout,
		LogBufferBytes: s.LogBufferBytes,
	})
	l.Process = p
	if err != nil {
		return fail(err)
	}

	create := exec.CommandContext(ctx, resolved, "create", o.modelName, "-f", modelfilePath)
	create.Env = append(os.Environ(), "OLLAMA_HOST="+host)
	if out, err := create.CombinedOutput(); err != nil {
		return fail(fmt.Errorf("%s create %s: %w: %s", resolved, o.modelName, err, lastLines(string(out), 20)))
	}
	if err := Preload(ctx, p.BaseURL(), o.modelName); err != nil {
		return fail(fmt.Errorf("load %s: %w\nlast engine output:\n%s", o.modelName, err, lastLines(p.LogTail(), 40)))
	}
	l.coldStart = time.Since(started)
	if v, err := Version(ctx, p.BaseURL()); err == nil {
		l.version = v
	}
	return l, nil
}

// localSettingsSupported rejects shared options that mean nothing for a
// local process.
func localSettingsSupported(s containers.Settings) error {
	switch {
	case s.GPUs != nil:
		return errors.New("containers.WithGPUs/WithGPUDeviceIDs apply to containers; a local Ollama uses the GPUs it finds")
	case s.ShmSize > 0, s.IPCHost:
		return errors.New("containers.WithShmSize/WithIPCHost apply to containers only")
	case s.HostNetwork:
		return errors.New("containers.WithHostNetwork applies to containers; a local Ollama always listens on 127.0.0.1")
	case s.APIKey != "":
		return errors.New("containers.WithAPIKey: Ollama has no API key setting")
	}
	return nil
}

// ColdStart is the time from starting `ollama serve` to the model loaded:
// server start, model creation and load together.
func (l *Local) ColdStart() time.Duration { return l.coldStart }

// Modelfile is the Modelfile the model was created from.
func (l *Local) Modelfile() string { return l.modelfile }

// Identity describes the engine for a report's experiment record, with the
// version the server reports.
func (l *Local) Identity() containers.Identity {
	id := l.Process.Identity()
	id.Version = l.version
	return id
}

// Shutdown stops the server and its runners and removes the temporary
// directory (Modelfile, and the models unless WithModelCache named a
// directory). It is safe on a nil Local.
func (l *Local) Shutdown(ctx context.Context) error {
	if l == nil {
		return nil
	}
	var err error
	if l.Process != nil {
		err = l.Process.Shutdown(ctx)
	}
	if l.dir != "" {
		if rerr := os.RemoveAll(l.dir); rerr != nil && err == nil {
			err = rerr
		}
	}
	return err
}

// lastLines returns at most n final lines of s.
func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}
