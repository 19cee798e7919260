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

// A row that does not fit the endpoint is an error naming its line and
// field, before any load.
func ExampleCheckWorkload() {
	w, _ := schedule.ParseWorkload("rank.jsonl", []byte(`{"query":"q","documents":["a","b"]}`+"\n"+`{"input":"x"}`))
	fmt.Println(openai.CheckWorkload(record.EndpointRerank, w))
	// Output:
	// rank.jsonl:2: input: an embeddings field; a rerank row carries query and documents
}

// An objective on a metric the endpoint does not define is refused.
func ExampleCheckObjectives() {
	fmt.Println(score.CheckObjectives(record.EndpointEmbeddings, report.SLO{TTFT: time.Second}))
	fmt.Println(score.CheckObjectives(record.EndpointEmbeddings, report.SLO{E2E: time.Second}))
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
