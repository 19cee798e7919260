package ollama_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/servebench/servebench/containers"
	"github.com/servebench/servebench/containers/ollama"
	"github.com/servebench/servebench/fixtures/gguf"
)

// Start a local Ollama serving a generated tiny model, send requests to its
// OpenAI-compatible root, and stop it. (Compiled, not run: it needs an
// ollama binary; see FindBinary.)
func ExampleRunLocal() {
	ctx := context.Background()
	dir, _ := os.MkdirTemp("", "tiny")
	defer os.RemoveAll(dir)
	model := filepath.Join(dir, "tiny.gguf")
	if _, err := gguf.WriteFile(model, gguf.Options{Seed: 1, EOS: gguf.EOSNever}); err != nil {
		panic(err)
	}
	engine, err := ollama.RunLocal(ctx, "", ollama.WithModelFile(model), ollama.WithNumParallel(4))
	defer engine.Shutdown(ctx)
	if err != nil {
		panic(err)
	}
	fmt.Println(engine.BaseURL(), engine.Model(), engine.ColdStart())
}

// Run the real ollama/ollama image instead, for machines with Docker.
// (Compiled, not run.)
func ExampleRun() {
	ctx := context.Background()
	engine, err := ollama.Run(ctx, "ollama/ollama:0.17.4",
		ollama.WithModelFile("tiny.gguf"), containers.WithGPUs())
	defer engine.Shutdown(ctx)
	if err != nil {
		panic(err)
	}
	fmt.Println(engine.BaseURL())
}

// Ollama cannot be made to run to max_tokens: a workload row that forces
// its length is recorded as not enforced.
func ExampleLengthControl() {
	fmt.Println(ollama.LengthControl())
	// Output:
	// unsupported
}

// Where .ci/build-ollama.sh puts the binary it builds.
func ExampleCachedBinary() {
	os.Setenv("SERVEBENCH_CACHE_DIR", "/var/cache/servebench")
	defer os.Unsetenv("SERVEBENCH_CACHE_DIR")
	fmt.Println(ollama.CachedBinary(ollama.BuildVersion))
	// Output:
	// /var/cache/servebench/ollama-v0.17.4/bin/ollama
}
