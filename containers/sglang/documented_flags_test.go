package sglang

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
	fl, err := standin.LoadFlagList("sglang")
	if err != nil {
		t.Fatal(err)
	}
	p, err := request(img,
		WithModel("Qwen/Qwen3-0.6B"),
		WithServedModelName("qwen"),
		WithContextLength(4096),
		WithMaxRunningRequests(8),
		WithMaxPrefillTokens(2048),
		WithChunkedPrefillSize(-1),
		WithDtype("bfloat16"),
		WithTensorParallelSize(2),
		WithMemFractionStatic(0.5),
		containers.WithAPIKey("sk-test"),
		containers.WithGPUs(),
	)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := fl.Parse(p.Request.Cmd[len(Program):]); err != nil {
		t.Errorf("%q: %v", p.Request.Cmd, err)
	}
	p, err = request(img, WithModel("m"), containers.WithExtraArgs("--no-such-engine-flag"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := fl.Parse(p.Request.Cmd[len(Program):]); err == nil || !strings.Contains(err.Error(), "unknown flag --no-such-engine-flag") {
		t.Errorf("an undocumented flag was not caught: %v", err)
	}
}
