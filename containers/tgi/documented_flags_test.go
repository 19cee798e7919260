package tgi

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
	fl, err := standin.LoadFlagList("tgi")
	if err != nil {
		t.Fatal(err)
	}
	p, err := request(img,
		WithModel("Qwen/Qwen3-0.6B"),
		WithMaxInputTokens(2048),
		WithMaxTotalTokens(4096),
		WithMaxConcurrentRequests(16),
		WithMaxBatchPrefillTokens(2048),
		WithMaxBatchTotalTokens(8192),
		WithDtype("bfloat16"),
		WithNumShard(2),
		containers.WithAPIKey("sk-test"),
		containers.WithGPUs(),
	)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := fl.Parse(p.Request.Cmd); err != nil {
		t.Errorf("%q: %v", p.Request.Cmd, err)
	}
	p, err = request(img, WithModel("m"), containers.WithExtraArgs("--no-such-engine-flag"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := fl.Parse(p.Request.Cmd); err == nil || !strings.Contains(err.Error(), "unknown flag --no-such-engine-flag") {
		t.Errorf("an undocumented flag was not caught: %v", err)
	}
}
