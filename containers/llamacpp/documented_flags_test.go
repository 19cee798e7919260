package llamacpp

import (
	"strings"
	"testing"

	"github.com/servebench/servebench/containers"
	"github.com/servebench/servebench/fixtures/simengine/standin"
)

// Every flag the module writes, with every option set, is in the engine's
// documented flag list for the pinned version (the list the engine stand-in
// enforces; its file names the version and the source), and a flag outside
// that list is caught.
func TestCommandLineUsesOnlyDocumentedFlags(t *testing.T) {
	fl, err := standin.LoadFlagList("llamacpp")
	if err != nil {
		t.Fatal(err)
	}
	p, err := request(img,
		WithHFRepo("ggml-org/Qwen3-0.6B-GGUF"),
		WithAlias("qwen"),
		WithContextSize(4096),
		WithParallel(4),
		WithBatchSize(512),
		WithGPULayers("all"),
		containers.WithAPIKey("sk-test"),
		containers.WithGPUs(),
	)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := fl.Parse(p.Request.Cmd); err != nil {
		t.Errorf("%q: %v", p.Request.Cmd, err)
	}
	p, err = request(img, WithModelFile("/m.gguf"), containers.WithExtraArgs("--no-such-engine-flag"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := fl.Parse(p.Request.Cmd); err == nil || !strings.Contains(err.Error(), "unknown flag --no-such-engine-flag") {
		t.Errorf("an undocumented flag was not caught: %v", err)
	}
}
