package containers

import (
	"context"
	"errors"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// dockerCLIAnswers asks the docker command line, independently of
// testcontainers, whether an engine answers here.
func dockerCLIAnswers(t *testing.T) bool {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if _, err := exec.LookPath("docker"); err != nil {
		return false
	}
	return exec.CommandContext(ctx, "docker", "info").Run() == nil
}

// dockerRuntimes lists the daemon's runtimes as the docker CLI reports them.
func dockerRuntimes(t *testing.T) string {
	t.Helper()
	out, err := exec.Command("docker", "info", "--format", "{{range $k, $v := .Runtimes}}{{$k}} {{end}}").Output()
	if err != nil {
		t.Fatalf("docker info: %v", err)
	}
	return string(out)
}

func TestProbesAgreeWithTheDockerCLI(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	docker := DockerAvailable(ctx)
	gpu := GPUAvailable(ctx)
	if !dockerCLIAnswers(t) {
		if !errors.Is(docker, ErrNoDocker) {
			t.Errorf("docker info fails but DockerAvailable = %v", docker)
		}
		if !errors.Is(gpu, ErrNoDocker) {
			t.Errorf("docker info fails but GPUAvailable = %v", gpu)
		}
		if reason := DockerSkipReason(ctx); !strings.Contains(reason, "needs a Docker engine") {
			t.Errorf("skip reason %q", reason)
		}
		return
	}
	if docker != nil {
		t.Errorf("docker info answers but DockerAvailable = %v", docker)
	}
	if DockerSkipReason(ctx) != "" {
		t.Error("skip reason with an engine present")
	}
	hasNvidia := strings.Contains(" "+dockerRuntimes(t), " nvidia ")
	switch {
	case hasNvidia && gpu != nil:
		t.Errorf("daemon lists nvidia but GPUAvailable = %v", gpu)
	case !hasNvidia && !errors.Is(gpu, ErrNoGPURuntime):
		t.Errorf("daemon lacks nvidia but GPUAvailable = %v", gpu)
	case !hasNvidia && !strings.Contains(gpu.Error(), "runc"):
		t.Errorf("GPUAvailable error %q does not list the runtimes", gpu)
	}
}
