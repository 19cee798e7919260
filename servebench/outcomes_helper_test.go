package servebench_test

import (
	"testing"

	"github.com/servebench/servebench/servebench"
	"github.com/servebench/servebench/servebench/record"
)

// outcomesOf reads a run's outcome records back from its outcomes.jsonl.
func outcomesOf(t testing.TB, res *servebench.RunResult) []record.Outcome {
	t.Helper()
	var out []record.Outcome
	for o, err := range res.Outcomes() {
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, *o)
	}
	return out
}
