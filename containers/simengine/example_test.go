package simengine_test

import (
	"context"
	"fmt"
	"github.com/testcontainers/testcontainers-go"

	"github.com/servebench/servebench/containers"
	"github.com/servebench/servebench/containers/simengine"
)

// Build the simulated engine from this repository into a FROM scratch
// image and start it; nothing is pulled. This example only compiles: it
// needs Docker (.ci/docker-up.sh starts one).
func ExampleRun() {
	ctx := context.Background()
	if err := containers.UseAirGappedDefaults(); err != nil {
		fmt.Println(err)
		return
	}
	engine, err := simengine.Run(ctx, simengine.WithMaxNumSeqs(32), simengine.WithTimeScale(0.5))
	defer func() { _ = testcontainers.TerminateContainer(engine) }() // nil-safe; Run may return a half-started container
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(engine.BaseURL(), engine.Model(), engine.ColdStart())
}
