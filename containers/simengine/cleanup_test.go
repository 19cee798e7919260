package simengine_test

import (
	"context"
	"testing"
	"time"

	cerrdefs "github.com/containerd/errdefs"
	"github.com/moby/moby/client"
	"github.com/testcontainers/testcontainers-go"

	"github.com/servebench/servebench/containers"
	"github.com/servebench/servebench/containers/simengine"
)

// A module container is a testcontainers.Container: CleanupContainer takes
// it, and the container is gone once the test that registered it ends.
func TestCleanupContainerTakesAModuleContainer(t *testing.T) {
	if err := containers.UseAirGappedDefaults(); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	containers.SkipIfNoDocker(ctx, t)

	var id string
	t.Run("start", func(t *testing.T) {
		c, err := simengine.Run(ctx, simengine.WithModel("cleanup"))
		testcontainers.CleanupContainer(t, c)
		if err != nil {
			t.Fatal(err)
		}
		id = c.GetContainerID()
		if !c.IsRunning() {
			t.Fatalf("container %s is not running", id)
		}
	})
	if id == "" {
		t.Fatal("no container started")
	}
	cli, err := testcontainers.NewDockerClientWithOpts(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer cli.Close()
	_, err = cli.ContainerInspect(ctx, id, client.ContainerInspectOptions{})
	if !cerrdefs.IsNotFound(err) {
		t.Errorf("container %s after its test ended: inspect error %v, want not found", id, err)
	}
}

// testcontainers' Terminate and Engine's Shutdown stop the same container;
// Shutdown after Terminate finds nothing left to do.
func TestShutdownAfterTerminate(t *testing.T) {
	if err := containers.UseAirGappedDefaults(); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	containers.SkipIfNoDocker(ctx, t)
	c, err := simengine.Run(ctx, simengine.WithModel("terminate"))
	testcontainers.CleanupContainer(t, c)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Terminate(ctx); err != nil {
		t.Fatalf("Terminate: %v", err)
	}
	if err := c.Shutdown(ctx); err != nil {
		t.Errorf("Shutdown after Terminate: %v", err)
	}
}
