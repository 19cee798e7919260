package module

import (
	"time"

	"github.com/moby/moby/api/types/container"
	"github.com/testcontainers/testcontainers-go"
)

// Spec describes how one engine is launched in a container. Each engine
// module fills a Spec from its own options; Assemble turns it and the shared
// Settings into a container request.
type Spec struct {
	// Kind names the engine ("vllm", "sglang", …).
	Kind string
	// Image is the image reference passed to Run. It is ignored when Build
	// is set.
	Image string
	// Build, when set, builds the image from a Dockerfile and build context
	// instead of using Image; nothing is pulled.
	Build *testcontainers.FromDockerfile
	// Entrypoint replaces the image's entrypoint when non-empty.
	Entrypoint []string
	// Program is the start of the container command, placed before Args
	// (e.g. python3 -m sglang.launch_server); empty when the image's
	// entrypoint is the engine itself.
	Program []string
	// Args are the engine's arguments, without the listen address, the API
	// key and the caller's extra arguments, which Assemble adds.
	Args []string
	// Env is the engine's default environment; the caller's WithEnv wins.
	Env map[string]string
	// Port is the port the engine listens on inside the container when it
	// is not on the host network.
	Port int
	// Listen returns the arguments and environment that make the engine
	// listen on host:port.
	Listen func(host string, port int) (args []string, env map[string]string)
	// APIKey returns the arguments and environment that make the engine
	// require key; nil when the engine has no API key.
	APIKey func(key string) (args []string, env map[string]string)
	// HealthPath answers 200 once the engine serves requests.
	HealthPath string
	// MetricsPath is the Prometheus endpoint; empty when the engine has
	// none.
	MetricsPath string
	// VersionPath answers a JSON object whose "version" field names the
	// engine's version; empty when the engine has no such endpoint.
	VersionPath string
	// CachePath is where WithModelCache mounts the host directory; empty
	// when the engine has no model cache.
	CachePath string
	// Model is the served model name to put in requests; empty asks Start
	// to read it from GET /v1/models once the engine is ready.
	Model string
	// StartupTimeout is the default readiness timeout.
	StartupTimeout time.Duration
	// IPCHost makes sharing the host's IPC namespace the default; a
	// caller's WithShmSize replaces it with a sized /dev/shm.
	IPCHost bool
	// ShmSize is the default size of /dev/shm in bytes.
	ShmSize int64

	// Process is the engine's command as a local process: the executable
	// (a name looked up on PATH) and the words before Args, e.g. vllm
	// serve, or python3 -m sglang.launch_server. Empty when the engine
	// cannot run as a process. Env, Port, CachePath and the container
	// settings do not apply to a process.
	Process []string
	// CacheEnv names the environment variable that points a local process
	// at its model cache (HF_HOME, LLAMA_CACHE); WithModelCache sets it.
	CacheEnv string
}

// Plan is an assembled container request plus what Start needs to turn the
// started container into an Engine.
type Plan struct {
	// Request is the testcontainers request, with the caller's
	// testcontainers options applied after the module's defaults.
	Request testcontainers.GenericContainerRequest
	// Kind, Image and Model describe the engine for its Identity.
	Kind  string
	Image string
	Model string
	// Port is the engine's port as "N/tcp": the container port, or the
	// host port when HostNetwork is set.
	Port string
	// HealthPath, MetricsPath and VersionPath are the engine's endpoints.
	HealthPath  string
	MetricsPath string
	VersionPath string
	// Args are the engine's arguments as assembled, for Identity; the API
	// key is redacted.
	Args []string
	// GPU is true when GPUs were requested; Start then checks that the
	// daemon has the NVIDIA runtime.
	GPU bool
	// HostNetwork is true when the container shares the host's network.
	HostNetwork bool
	// APIKey is the key the engine requires; empty when none.
	APIKey string
	// LogBufferBytes bounds the in-memory log tail.
	LogBufferBytes int
}

// HostConfig returns the host configuration the request's modifiers make of
// an empty one: what Docker will be asked for (network mode, published
// ports, IPC, shared memory, GPUs, mounts). It starts nothing.
func (p Plan) HostConfig() container.HostConfig {
	var hc container.HostConfig
	if p.Request.HostConfigModifier != nil {
		p.Request.HostConfigModifier(&hc)
	}
	return hc
}
