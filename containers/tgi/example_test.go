package tgi_test

import (
	"context"
	"fmt"
	"github.com/testcontainers/testcontainers-go"

	"github.com/servebench/servebench/containers"
	"github.com/servebench/servebench/containers/tgi"
)

// Start TGI with a data volume, as its quick tour does. This example only
// compiles: it needs Docker, the NVIDIA runtime and a GPU.
func ExampleRun() {
	ctx := context.Background()
	engine, err := tgi.Run(ctx, "ghcr.io/huggingface/text-generation-inference:3.3.5",
		tgi.WithModel("teknium/OpenHermes-2.5-Mistral-7B"),
		tgi.WithMaxTotalTokens(4096),
		containers.WithGPUs(),
		containers.WithModelCache("/srv/tgi-data"),
	)
	defer func() { _ = testcontainers.TerminateContainer(engine) }() // nil-safe; Run may return a half-started container
	if err != nil {
		fmt.Println(err)
		return
	}
	// TGI cannot be made to run to max_tokens: lengths come from usage.
	fmt.Println(engine.BaseURL(), tgi.LengthControl())
}
