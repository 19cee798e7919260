package record_test

import (
	"fmt"

	"github.com/servebench/servebench/servebench/record"
)

// Each endpoint declares what it defines: an API without a first token
// has E2E but no TTFT, and rates in items as well as requests.
func ExampleAPIOf() {
	api, _ := record.APIOf(record.EndpointEmbeddings)
	fmt.Println(api.Path, api.FirstToken, api.Defines(record.MetricTTFT), api.Defines(record.MetricE2E))
	fmt.Println(api.Throughput)
	// Output:
	// /v1/embeddings false false true
	// [requests/s items/s input_tokens/s]
}

// An unknown endpoint is refused with the list of supported ones.
func ExampleParseEndpoint() {
	_, err := record.ParseEndpoint("score")
	fmt.Println(err)
	// Output:
	// unknown endpoint "score": want one of completions, chat, responses, messages, embeddings, rerank, rerank-tei, pair-score
}
