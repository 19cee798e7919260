package containers

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/moby/moby/client"
	"github.com/testcontainers/testcontainers-go"
)

// ErrNoDocker is wrapped by DockerAvailable's error when no Docker engine
// answers.
var ErrNoDocker = errors.New("no Docker engine answers")

// ErrNoGPURuntime is wrapped by GPUAvailable's error, and by Run's error when
// GPUs were requested, when the Docker daemon has no "nvidia" runtime (the
// NVIDIA Container Toolkit is not installed or not configured).
var ErrNoGPURuntime = errors.New(`the Docker daemon has no "nvidia" runtime`)

// DockerAvailable reports whether a Docker engine answers, the way
// testcontainers finds it (DOCKER_HOST, the default socket, …). It returns
// nil when one does and an error wrapping ErrNoDocker otherwise; a panic in
// the lookup is recovered and reported as an error.
func DockerAvailable(ctx context.Context) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("%w: looking for it panicked: %v", ErrNoDocker, r)
		}
	}()
	provider, err := testcontainers.NewDockerProvider()
	if err != nil {
		return fmt.Errorf("%w: %v", ErrNoDocker, err)
	}
	defer provider.Close()
	if err := provider.Health(ctx); err != nil {
		return fmt.Errorf("%w: %v", ErrNoDocker, err)
	}
	return nil
}

// GPUAvailable reports whether containers can be given NVIDIA GPUs: a Docker
// engine answers and lists an "nvidia" runtime. It returns an error wrapping
// ErrNoDocker or ErrNoGPURuntime otherwise; a panic is recovered.
func GPUAvailable(ctx context.Context) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("%w: looking for it panicked: %v", ErrNoDocker, r)
		}
	}()
	provider, err := testcontainers.NewDockerProvider()
	if err != nil {
		return fmt.Errorf("%w: %v", ErrNoDocker, err)
	}
	defer provider.Close()
	info, err := provider.Client().Info(ctx, client.InfoOptions{})
	if err != nil {
		return fmt.Errorf("%w: %v", ErrNoDocker, err)
	}
	if _, ok := info.Info.Runtimes["nvidia"]; ok {
		return nil
	}
	names := make([]string, 0, len(info.Info.Runtimes))
	for name := range info.Info.Runtimes {
		names = append(names, name)
	}
	sort.Strings(names)
	return fmt.Errorf("%w (runtimes: %s)", ErrNoGPURuntime, strings.Join(names, ", "))
}
