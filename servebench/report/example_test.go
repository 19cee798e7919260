package report_test

import (
	"fmt"

	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/servebench/report"
	"github.com/servebench/servebench/servebench/score"
)

// A row's prompt length compared with what the engine reported.
func ExampleComparePromptTokens() {
	m := report.ComparePromptTokens(512, 525, report.DefaultPromptTokenTolerance)
	fmt.Println(m)
	m = report.ComparePromptTokens(100, 120, report.DefaultPromptTokenTolerance)
	fmt.Println(m.Mismatch, m.Difference)
	// Output:
	// requested 512 prompt tokens, engine reported 525 (+13, within the allowed ±26)
	// true 20
}

func ExampleReport_Percentile() {
	r, _ := score.TraceFiles("../score/testdata/seed000/trace.json", "../score/testdata/seed000/events.jsonl")
	v, n, population, _ := r.Percentile(record.MetricITL, 99)
	fmt.Printf("p99 ITL %v ms over %d: %s\n", v, n, population)
	// Output: p99 ITL 120 ms over 16: gaps between tokens, pooled over successful requests whose every event is proven to hold one token (16 gaps from 4 requests)
}
