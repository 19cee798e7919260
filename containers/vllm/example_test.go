package vllm_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/testcontainers/testcontainers-go"

	"github.com/servebench/servebench/containers"
	"github.com/servebench/servebench/containers/vllm"
	"github.com/servebench/servebench/servebench"
)

// Start vLLM on every GPU with the Hugging Face cache mounted, then point a
// servebench client at it. The image must already be present (docker load
// in air-gapped CI). This example only compiles: it needs Docker, the
// NVIDIA runtime and a GPU.
func ExampleRun() {
	ctx := context.Background()
	home, _ := os.UserHomeDir()
	engine, err := vllm.Run(ctx, "vllm/vllm-openai:v0.11.0",
		vllm.WithModel("Qwen/Qwen3-0.6B"),
		vllm.WithMaxModelLen(4096),
		vllm.WithMaxNumSeqs(64),
		containers.WithGPUs(),
		containers.WithModelCache(filepath.Join(home, ".cache", "huggingface")),
		containers.WithStartupTimeout(15*time.Minute),
	)
	defer func() { _ = testcontainers.TerminateContainer(engine) }() // nil-safe; Run may return a half-started container
	if err != nil {
		fmt.Println(err)
		return
	}
	client := servebench.NewClient(engine.BaseURL(), engine.Model())
	client.APIKey, client.LengthControl = engine.APIKey(), vllm.LengthControl()
	fmt.Println(client, engine.ColdStart(), containers.EngineInfo(engine).ImageID)
}

// Start vLLM as a local process, from a virtual environment, with the same
// engine arguments Run gives the container. This example only compiles: it
// needs vLLM and a GPU.
func ExampleRunProcess() {
	ctx := context.Background()
	engine, err := vllm.RunProcess(ctx,
		vllm.WithModel("Qwen/Qwen3-0.6B"),
		vllm.WithMaxModelLen(4096),
		containers.WithExecutable("/opt/vllm/bin/vllm"),
		containers.WithGPUDeviceIDs("0"),
	)
	if engine != nil {
		defer engine.Shutdown(ctx)
	}
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(engine.BaseURL(), engine.Command(), engine.ColdStart())
}
