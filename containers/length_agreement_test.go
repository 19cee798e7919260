package containers_test

import (
	"testing"

	"github.com/servebench/servebench/containers/llamacpp"
	"github.com/servebench/servebench/containers/ollama"
	"github.com/servebench/servebench/containers/sglang"
	"github.com/servebench/servebench/containers/simengine"
	"github.com/servebench/servebench/containers/tgi"
	"github.com/servebench/servebench/containers/vllm"
	"github.com/servebench/servebench/servebench/openai"
)

// Each engine module and the client's table must agree on how a forced
// output length is sent, or a suite would send one field and report another.
func TestEngineModulesAgreeWithLengthControlFor(t *testing.T) {
	for kind, module := range map[string]openai.LengthControl{
		"vllm": vllm.LengthControl(), "sglang": sglang.LengthControl(), "tgi": tgi.LengthControl(),
		"llamacpp": llamacpp.LengthControl(), "ollama": ollama.LengthControl(), "simengine": simengine.LengthControl(),
	} {
		if got, ok := openai.LengthControlFor(kind); !ok || got != module {
			t.Errorf("%s: LengthControlFor says %q (%v), the module says %q", kind, got, ok, module)
		}
	}
}
