package dockermodelrunner_test

import (
	"context"
	"fmt"

	"github.com/servebench/servebench/containers/dockermodelrunner"
)

// Serve a model through Docker Desktop's model runner, or say why this host
// cannot.
func ExampleRun() {
	ctx := context.Background()
	if reason := dockermodelrunner.SkipReason(ctx); reason != "" {
		fmt.Println("skipped:", reason)
		return
	}
	c, err := dockermodelrunner.Run(ctx, "ai/smollm2:360M-Q4_K_M")
	defer func() { _ = c.Shutdown(ctx) }()
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(c.BaseURL(), c.Model())
}
