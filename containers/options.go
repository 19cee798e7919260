package containers

import (
	"errors"
	"fmt"
	"maps"
	"path/filepath"
	"time"

	"github.com/testcontainers/testcontainers-go"
)

// Settings are the options every engine module shares. Modules start from
// their own defaults and apply the caller's Options on top.
type Settings struct {
	// GPUs is nil when no GPU is requested.
	GPUs *GPURequest
	// ShmSize is the size of /dev/shm in bytes; zero keeps Docker's default
	// (or the engine's default IPC mode).
	ShmSize int64
	// IPCHost shares the host's IPC namespace (docker run --ipc=host).
	IPCHost bool
	// ModelCacheDir is an absolute host directory mounted at the engine's
	// model-cache path; empty mounts nothing.
	ModelCacheDir string
	// APIKey is required by the engine on its API routes and sent by
	// clients; it is never written to logs, Command or Identity.
	APIKey string
	// ExtraArgs are appended to the engine's arguments.
	ExtraArgs []string
	// Env is added to the container's environment.
	Env map[string]string
	// StartupTimeout bounds the wait for readiness; zero uses the engine's
	// default.
	StartupTimeout time.Duration
	// HostNetwork runs the container in the host's network namespace, with
	// the engine listening on a free 127.0.0.1 port.
	HostNetwork bool
	// LogBufferBytes bounds the in-memory tail of engine output kept for
	// failure reports; zero uses DefaultLogBufferBytes.
	LogBufferBytes int
	// Executable replaces the first word of a local process's command (a
	// path or a name on PATH); containers ignore it.
	Executable string
}

// GPURequest says which GPUs the container gets through the NVIDIA device
// driver.
type GPURequest struct {
	// All requests every GPU (docker run --gpus all).
	All bool
	// DeviceIDs lists the GPUs by index or UUID when All is false.
	DeviceIDs []string
}

// Option is an option shared by every engine module. It satisfies
// testcontainers.ContainerCustomizer so that it can be passed to any module's
// Run together with testcontainers' own options; its Customize does nothing,
// because Run reads the option before building the request.
type Option func(*Settings) error

// Customize implements testcontainers.ContainerCustomizer. Settings are read
// by the module's Run, so nothing is done here.
func (o Option) Customize(*testcontainers.GenericContainerRequest) error { return nil }

// WithGPUs gives the container every GPU. Run fails with ErrNoGPURuntime when
// the Docker daemon has no "nvidia" runtime.
func WithGPUs() Option {
	return func(s *Settings) error {
		s.GPUs = &GPURequest{All: true}
		return nil
	}
}

// WithGPUDeviceIDs gives the container the GPUs with these indexes or UUIDs.
func WithGPUDeviceIDs(ids ...string) Option {
	return func(s *Settings) error {
		if len(ids) == 0 {
			return errors.New("WithGPUDeviceIDs: no device ID given")
		}
		for i, id := range ids {
			if id == "" {
				return fmt.Errorf("WithGPUDeviceIDs: device ID %d is empty", i)
			}
		}
		s.GPUs = &GPURequest{DeviceIDs: append([]string(nil), ids...)}
		return nil
	}
}

// WithShmSize sets the size of /dev/shm in bytes (docker run --shm-size). It
// replaces an engine's default of sharing the host's IPC namespace.
func WithShmSize(bytes int64) Option {
	return func(s *Settings) error {
		if bytes <= 0 {
			return fmt.Errorf("WithShmSize: size must be positive, got %d", bytes)
		}
		s.ShmSize = bytes
		return nil
	}
}

// WithIPCHost shares the host's IPC namespace (docker run --ipc=host), as
// vLLM and SGLang recommend for tensor parallelism.
func WithIPCHost() Option {
	return func(s *Settings) error {
		s.IPCHost = true
		return nil
	}
}

// WithModelCache mounts a host directory at the engine's model-cache path
// (for example ~/.cache/huggingface at /root/.cache/huggingface), so that
// weights are downloaded once and reused. The directory must exist.
func WithModelCache(hostDir string) Option {
	return func(s *Settings) error {
		if hostDir == "" {
			return errors.New("WithModelCache: empty directory")
		}
		abs, err := filepath.Abs(hostDir)
		if err != nil {
			return fmt.Errorf("WithModelCache %q: %w", hostDir, err)
		}
		s.ModelCacheDir = abs
		return nil
	}
}

// WithAPIKey makes the engine require this key (through the engine's own
// flag or environment variable) and makes the container's clients send it.
// The key is never written to logs, Command or Identity.
func WithAPIKey(key string) Option {
	return func(s *Settings) error {
		if key == "" {
			return errors.New("WithAPIKey: empty key")
		}
		s.APIKey = key
		return nil
	}
}

// WithExtraArgs appends arguments to the engine's command line, after the
// module's own; engines that parse with argparse or clap let a later flag
// override an earlier one.
func WithExtraArgs(args ...string) Option {
	return func(s *Settings) error {
		s.ExtraArgs = append(s.ExtraArgs, args...)
		return nil
	}
}

// WithEnv adds environment variables to the container (HF_TOKEN, engine
// tuning variables, …). Values are not recorded in Identity.
func WithEnv(env map[string]string) Option {
	return func(s *Settings) error {
		if s.Env == nil {
			s.Env = map[string]string{}
		}
		maps.Copy(s.Env, env)
		return nil
	}
}

// WithStartupTimeout bounds the wait from container start to readiness.
// Engines that load weights default to DefaultModelStartupTimeout.
func WithStartupTimeout(d time.Duration) Option {
	return func(s *Settings) error {
		if d <= 0 {
			return fmt.Errorf("WithStartupTimeout: timeout must be positive, got %s", d)
		}
		s.StartupTimeout = d
		return nil
	}
}

// WithHostNetwork runs the container in the host's network namespace
// (docker run --network host). The engine is told to listen on a free
// 127.0.0.1 port, so nothing is reachable from outside the machine and no
// port is published.
func WithHostNetwork() Option {
	return func(s *Settings) error {
		s.HostNetwork = true
		return nil
	}
}

// WithLogBuffer bounds the in-memory tail of engine output kept for failure
// reports (LogTail); the full output stays available through Logs.
func WithLogBuffer(bytes int) Option {
	return func(s *Settings) error {
		if bytes <= 0 {
			return fmt.Errorf("WithLogBuffer: size must be positive, got %d", bytes)
		}
		s.LogBufferBytes = bytes
		return nil
	}
}

// WithExecutable runs a local process engine from this executable instead
// of the engine's default name on PATH (for example a vllm inside a
// virtual environment, or python3 of the environment that has SGLang). The
// words that follow the executable (serve, -m sglang.launch_server) stay.
func WithExecutable(path string) Option {
	return func(s *Settings) error {
		if path == "" {
			return errors.New("WithExecutable: empty path")
		}
		s.Executable = path
		return nil
	}
}
