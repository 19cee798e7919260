package containers_test

import (
	"slices"
	"testing"

	"github.com/servebench/servebench/containers/llamacpp"
	"github.com/servebench/servebench/containers/sglang"
	"github.com/servebench/servebench/containers/tgi"
	"github.com/servebench/servebench/containers/vllm"
	"github.com/servebench/servebench/fixtures/simengine/standin"
	"github.com/servebench/servebench/servebench/record"
)

// Each engine's stand-in serves exactly the routes of the APIs its module
// declares, so a run against a stand-in fails where the engine would.
func TestStandInsServeTheDeclaredAPIs(t *testing.T) {
	personalities := standin.Personalities()
	for engine, apis := range map[string]func() []record.Endpoint{
		"vllm": vllm.APIs, "sglang": sglang.APIs, "tgi": tgi.APIs, "llamacpp": llamacpp.APIs,
	} {
		var want []string
		for _, e := range apis() {
			api, ok := record.APIOf(e)
			if !ok {
				t.Fatalf("%s declares unknown endpoint %q", engine, e)
			}
			want = append(want, api.Path)
		}
		got := slices.Clone(personalities[engine].APIPaths)
		slices.Sort(got)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Errorf("%s: the stand-in serves %v, the module declares %v", engine, got, want)
		}
	}
}
