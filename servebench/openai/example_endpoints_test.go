package openai_test

import (
	"fmt"
	"time"

	"github.com/servebench/servebench/servebench/capacity"
	"github.com/servebench/servebench/servebench/openai"
	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/servebench/report"
	"github.com/servebench/servebench/servebench/schedule"
	"github.com/servebench/servebench/servebench/score"
)

// Each endpoint declares what it defines: an API without a first token
// has E2E but no TTFT, and rates in items as well as requests.
func ExampleAPIOf() {
	api, _ := openai.APIOf(openai.EndpointEmbeddings)
	fmt.Println(api.Path, api.FirstToken, api.Defines(record.MetricTTFT), api.Defines(record.MetricE2E))
	fmt.Println(api.Throughput)
	// Output:
	// /v1/embeddings false false true
	// [requests/s items/s input_tokens/s]
}

// An unknown endpoint is refused with the list of supported ones.
func ExampleParseEndpoint() {
	_, err := openai.ParseEndpoint("score")
	fmt.Println(err)
	// Output:
	// unknown endpoint "score": want one of completions, chat, responses, embeddings, rerank, rerank-tei, pair-score
}

// A row that does not fit the endpoint is an error naming its line and
// field, before any load.
func ExampleEndpoint_CheckWorkload() {
	w, _ := schedule.ParseWorkload("rank.jsonl", []byte(`{"query":"q","documents":["a","b"]}`+"\n"+`{"input":"x"}`))
	fmt.Println(openai.EndpointRerank.CheckWorkload(w))
	// Output:
	// rank.jsonl:2: input: an embeddings field; a rerank row carries query and documents
}

// An objective on a metric the endpoint does not define is refused.
func ExampleCheckObjectives() {
	fmt.Println(score.CheckObjectives(openai.EndpointEmbeddings, report.SLO{TTFT: time.Second}))
	fmt.Println(score.CheckObjectives(openai.EndpointEmbeddings, report.SLO{E2E: time.Second}))
	// Output:
	// a ttft objective cannot be judged on the embeddings endpoint: it has no first token, so it defines e2e_ms only
	// <nil>
}

// A batch-size sweep regroups an embeddings workload's inputs.
func ExampleRebatchWorkload() {
	w, _ := schedule.ParseWorkload("e.jsonl", []byte(`{"input":["a","b","c"]}`))
	b, _ := capacity.RebatchWorkload(w, 2)
	for _, r := range b.Requests {
		fmt.Println(r.ID, r.Input.Texts)
	}
	// Output:
	// batch2-1 [a b]
	// batch2-2 [c a]
}
