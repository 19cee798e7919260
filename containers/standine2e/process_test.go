package standine2e_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/testcontainers/testcontainers-go"

	"github.com/servebench/servebench/containers"
	"github.com/servebench/servebench/containers/vllm"
)

// Every engine module starts its engine as a local process from the same
// engine arguments it gives a container; the stand-in refuses any flag
// outside the engine's documented list, so a start proves the command line.
func TestEngineModulesAsLocalProcesses(t *testing.T) {
	for _, c := range engineCases() {
		t.Run(c.kind, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			opts := append(append([]testcontainers.ContainerCustomizer(nil), c.opts...),
				containers.WithExecutable(executable(c.executable)), containers.WithAPIKey(apiKey))
			p, err := c.process(ctx, opts...)
			if p != nil {
				defer p.Shutdown(context.Background())
			}
			if err != nil {
				t.Fatal(err)
			}
			if !strings.HasPrefix(p.BaseURL(), "http://127.0.0.1:") {
				t.Errorf("base URL %s is not on loopback", p.BaseURL())
			}
			checkEngine(t, ctx, c, p)
			if err := p.Shutdown(ctx); err != nil {
				t.Fatal(err)
			}
			select {
			case <-p.Exited():
			default:
				t.Error("the process still runs after Shutdown")
			}
		})
	}
}

// A flag outside the pinned version's documented list stops the start, and
// the error quotes the engine's refusal.
func TestProcessRefusesAnUndocumentedFlag(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	p, err := vllm.RunProcess(ctx, vllm.WithModel("m"), containers.WithExecutable(executable("vllm")),
		containers.WithExtraArgs("--max-num-sequences", "8"))
	if p != nil {
		defer p.Shutdown(context.Background())
	}
	if err == nil || !strings.Contains(err.Error(), "unknown flag --max-num-sequences") || !strings.Contains(err.Error(), "exited before it was ready") {
		t.Fatalf("error %v, want the stand-in's refusal of --max-num-sequences", err)
	}
}
