package suites

import (
	"slices"
	"strings"

	"github.com/servebench/servebench/containers/llamacpp"
	"github.com/servebench/servebench/containers/ollama"
	"github.com/servebench/servebench/containers/sglang"
	"github.com/servebench/servebench/containers/simengine"
	"github.com/servebench/servebench/containers/tgi"
	"github.com/servebench/servebench/containers/vllm"
	"github.com/servebench/servebench/servebench/record"
)

// engineAPIs gives the endpoints each engine kind serves, from its module.
// A kind without an entry (one a caller registered) is not checked.
var engineAPIs = map[string]func() []record.Endpoint{
	"simengine": simengine.APIs, "vllm": vllm.APIs, "sglang": sglang.APIs, "tgi": tgi.APIs,
	"llamacpp": llamacpp.APIs, "ollama": ollama.APIs,
}

// EngineAPIs lists the endpoints the engine kind serves, and false for a
// kind whose APIs are not declared.
func EngineAPIs(kind string) ([]record.Endpoint, bool) {
	apis, ok := engineAPIs[kind]
	if !ok {
		return nil, false
	}
	return apis(), true
}

// servesAPI says whether engine kind serves endpoint e, and lists what it
// serves when it does not.
func servesAPI(kind string, e record.Endpoint) (bool, string) {
	apis, ok := EngineAPIs(kind)
	if !ok || slices.Contains(apis, e) {
		return true, ""
	}
	names := make([]string, len(apis))
	for i, a := range apis {
		names[i] = string(a)
	}
	return false, strings.Join(names, ", ")
}
