package module_test

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"github.com/servebench/servebench/containers/internal/module"
)

// Start an engine binary as a local process on 127.0.0.1 and wait until it
// serves; Shutdown stops it and everything it started. (Compiled, not run:
// it needs the engine's binary.)
func ExampleStartProcess() {
	ctx := context.Background()
	engine, err := module.StartProcess(ctx, module.ProcessSpec{
		Kind:   "llamacpp",
		Binary: "llama-server",
		Args:   []string{"--model", "tiny.gguf", "--alias", "tiny"},
		Listen: func(host string, port int) ([]string, map[string]string) {
			return []string{"--host", host, "--port", strconv.Itoa(port)}, nil
		},
		HealthPath:     "/health",
		MetricsPath:    "/metrics",
		Model:          "tiny",
		StartupTimeout: 2 * time.Minute,
	})
	defer engine.Shutdown(ctx)
	if err != nil {
		panic(err)
	}
	fmt.Println(engine.BaseURL(), engine.ColdStart())
}
