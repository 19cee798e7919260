package module

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/servebench/servebench/containers"
)

// TestStartRefusesGPUsWithoutTheRuntime: a plan that asks for GPUs is
// refused before any container is created when the daemon has no NVIDIA
// runtime (or there is no daemon).
func TestStartRefusesGPUsWithoutTheRuntime(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	present := containers.DockerAvailable(ctx) == nil
	if present && containers.GPUAvailable(ctx) == nil {
		t.Skip("the daemon has the NVIDIA runtime: the refusal cannot happen here")
	}
	var s containers.Settings
	if err := containers.WithGPUs()(&s); err != nil {
		t.Fatal(err)
	}
	spec := testSpec()
	spec.Image = "servebench.invalid/never-pulled:0" // a pull attempt would fail differently
	plan, err := Assemble(spec, s, nil)
	if err != nil {
		t.Fatal(err)
	}
	base, err := Start(ctx, plan)
	if base != nil {
		t.Errorf("a container was created: %v", base.GetContainerID())
	}
	want := containers.ErrNoGPURuntime
	if !present {
		want = containers.ErrNoDocker
	}
	if !errors.Is(err, want) || !strings.HasPrefix(err.Error(), "GPUs requested: ") {
		t.Errorf("error %v, want one wrapping %v", err, want)
	}
}
