package llamacpp_test

import (
	"context"
	"fmt"
	"github.com/testcontainers/testcontainers-go"

	"github.com/servebench/servebench/containers"
	"github.com/servebench/servebench/containers/llamacpp"
)

// Serve a GGUF file from a mounted model directory on the CPU image. This
// example only compiles: it needs Docker and the image.
func ExampleRun() {
	ctx := context.Background()
	engine, err := llamacpp.Run(ctx, "ghcr.io/ggml-org/llama.cpp:server",
		llamacpp.WithModelFile(llamacpp.CachePath+"/tiny.gguf"),
		llamacpp.WithAlias("tiny"),
		llamacpp.WithParallel(4),
		llamacpp.WithContextSize(4096),
		containers.WithModelCache("/srv/gguf"),
	)
	defer func() { _ = testcontainers.TerminateContainer(engine) }() // nil-safe; Run may return a half-started container
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(engine.BaseURL(), engine.Model(), llamacpp.LengthControl())
}
