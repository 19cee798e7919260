package containers

import (
	"context"
	"os"
	"os/exec"
	"strings"
	"time"
)

// EnvRequireDocker names the environment variable that turns a missing
// Docker engine from a skip into a failure: CI sets it to "1", because there
// the container path must run.
const EnvRequireDocker = "SERVEBENCH_REQUIRE_DOCKER"

// EnvRequireGPU names the environment variable that turns a missing GPU
// runtime from a skip into a failure, for runners that have GPUs.
const EnvRequireGPU = "SERVEBENCH_REQUIRE_GPU"

// TB is the part of *testing.T, and of Ginkgo's GinkgoT(), that the skip
// helpers use.
type TB interface {
	Helper()
	Skip(args ...any)
	Fatal(args ...any)
}

// DockerRequired reports whether SERVEBENCH_REQUIRE_DOCKER is "1".
func DockerRequired() bool { return os.Getenv(EnvRequireDocker) == "1" }

// GPURequired reports whether SERVEBENCH_REQUIRE_GPU is "1".
func GPURequired() bool { return os.Getenv(EnvRequireGPU) == "1" }

// DockerSkipReason returns why a container spec cannot run here, or "" when
// a Docker engine answers.
func DockerSkipReason(ctx context.Context) string {
	if err := DockerAvailable(ctx); err != nil {
		return "container spec needs a Docker engine: " + err.Error() +
			" (start one, e.g. .ci/docker-up.sh; set " + EnvRequireDocker + "=1 to fail instead of skipping)"
	}
	return ""
}

// GPUSkipReason returns why a GPU container spec cannot run here, or "" when
// the Docker daemon has the NVIDIA runtime.
func GPUSkipReason(ctx context.Context) string {
	if err := GPUAvailable(ctx); err != nil {
		return "GPU container spec needs Docker with the NVIDIA runtime: " + err.Error() +
			" (set " + EnvRequireGPU + "=1 to fail instead of skipping)"
	}
	return ""
}

// SkipIfNoDocker skips the current test or spec when no Docker engine
// answers, or fails it when SERVEBENCH_REQUIRE_DOCKER=1. Under Ginkgo pass
// GinkgoT().
func SkipIfNoDocker(ctx context.Context, t TB) {
	t.Helper()
	if reason := DockerSkipReason(ctx); reason != "" {
		if DockerRequired() {
			t.Fatal(EnvRequireDocker + "=1 but " + reason)
			return
		}
		t.Skip(reason)
	}
}

// SkipIfNoGPU skips the current test or spec when the Docker daemon cannot
// give containers NVIDIA GPUs, or fails it when SERVEBENCH_REQUIRE_GPU=1.
func SkipIfNoGPU(ctx context.Context, t TB) {
	t.Helper()
	if reason := GPUSkipReason(ctx); reason != "" {
		if GPURequired() {
			t.Fatal(EnvRequireGPU + "=1 but " + reason)
			return
		}
		t.Skip(reason)
	}
}

// LocalGPUSkipReason returns why a local-process engine that asks for GPUs
// cannot run here (nvidia-smi is missing or lists no GPU), or "" when
// nvidia-smi lists at least one. Containers check Docker's NVIDIA runtime
// instead (GPUSkipReason).
func LocalGPUSkipReason(ctx context.Context) string {
	ctx, cancel := context.WithTimeout(ctx, 20*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, "nvidia-smi", "-L").Output()
	switch {
	case err != nil:
		return "GPU process spec needs an NVIDIA GPU: nvidia-smi -L: " + err.Error() +
			" (set " + EnvRequireGPU + "=1 to fail instead of skipping)"
	case !strings.Contains(string(out), "GPU "):
		return "GPU process spec needs an NVIDIA GPU: nvidia-smi -L lists none" +
			" (set " + EnvRequireGPU + "=1 to fail instead of skipping)"
	}
	return ""
}
