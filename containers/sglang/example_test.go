package sglang_test

import (
	"context"
	"fmt"
	"github.com/testcontainers/testcontainers-go"

	"github.com/servebench/servebench/containers"
	"github.com/servebench/servebench/containers/sglang"
)

// Start SGLang with tensor parallelism over two GPUs. This example only
// compiles: it needs Docker, the NVIDIA runtime and GPUs.
func ExampleRun() {
	ctx := context.Background()
	engine, err := sglang.Run(ctx, "lmsysorg/sglang:v0.5.4",
		sglang.WithModel("Qwen/Qwen3-8B"),
		sglang.WithTensorParallelSize(2),
		sglang.WithContextLength(8192),
		containers.WithGPUDeviceIDs("0", "1"),
	)
	defer func() { _ = testcontainers.TerminateContainer(engine) }() // nil-safe; Run may return a half-started container
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(engine.BaseURL(), engine.MetricsURL(), sglang.LengthControl())
}
