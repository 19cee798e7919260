package suites

import "testing"

// A runner that requires Docker but has no GPU skips GPU contracts; one
// that requires GPUs fails them.
func TestEngineRequiredFollowsTheSwitchForWhatIsMissing(t *testing.T) {
	gpu, cpu := &EngineSpec{Kind: "ollama", GPUs: -1}, &EngineSpec{Kind: "ollama"}
	for _, c := range []struct {
		docker, gpuEnv string
		engine         *EngineSpec
		want           bool
	}{
		{"1", "", gpu, false},
		{"1", "", cpu, true},
		{"", "1", gpu, true},
		{"", "1", cpu, false},
		{"", "", nil, false},
		{"1", "", nil, true},
	} {
		t.Setenv("SERVEBENCH_REQUIRE_DOCKER", c.docker)
		t.Setenv("SERVEBENCH_REQUIRE_GPU", c.gpuEnv)
		if got := engineRequired(c.engine); got != c.want {
			t.Errorf("REQUIRE_DOCKER=%q REQUIRE_GPU=%q engine %+v: required %v, want %v", c.docker, c.gpuEnv, c.engine, got, c.want)
		}
	}
}
