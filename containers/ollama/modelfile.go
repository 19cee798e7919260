package ollama

import (
	"fmt"
	"strings"
)

// modelfile returns the Modelfile that creates the model from the GGUF file
// at from (a path as the ollama client creating the model sees it).
func modelfile(from string, o options) string {
	var b strings.Builder
	fmt.Fprintf(&b, "FROM %s\n", from)
	fmt.Fprintf(&b, "TEMPLATE \"\"\"%s\"\"\"\n", o.template)
	fmt.Fprintf(&b, "PARAMETER num_thread %d\n", o.numThread)
	fmt.Fprintf(&b, "PARAMETER num_predict %d\n", o.numPredict)
	if o.numCtx > 0 {
		fmt.Fprintf(&b, "PARAMETER num_ctx %d\n", o.numCtx)
	}
	for _, p := range o.parameters {
		fmt.Fprintf(&b, "PARAMETER %s %s\n", p[0], p[1])
	}
	return b.String()
}

// serverEnv is the environment of `ollama serve` apart from OLLAMA_HOST and
// OLLAMA_MODELS.
func serverEnv(o options) map[string]string {
	return map[string]string{
		"OLLAMA_NUM_PARALLEL": fmt.Sprint(o.numParallel),
		"OLLAMA_KEEP_ALIVE":   "-1",
		"OLLAMA_NO_CLOUD":     "1",
	}
}
