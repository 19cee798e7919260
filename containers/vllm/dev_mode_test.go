package vllm

import "testing"

// WithDevMode puts VLLM_SERVER_DEV_MODE=1 into the container's
// environment, which makes vLLM serve POST /reset_prefix_cache.
func TestWithDevModeSetsTheVariable(t *testing.T) {
	p, err := request(img, WithModel("m"), WithDevMode())
	if err != nil {
		t.Fatal(err)
	}
	if got := p.Request.Env["VLLM_SERVER_DEV_MODE"]; got != "1" {
		t.Fatalf("VLLM_SERVER_DEV_MODE=%q in %v, want 1", got, p.Request.Env)
	}
	p, err = request(img, WithModel("m"))
	if err != nil {
		t.Fatal(err)
	}
	if _, set := p.Request.Env["VLLM_SERVER_DEV_MODE"]; set {
		t.Fatalf("without WithDevMode the variable is set: %v", p.Request.Env)
	}
}
