package servebench_test

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/servebench/servebench/fixtures"
	"github.com/servebench/servebench/fixtures/simengine"
	"github.com/servebench/servebench/servebench"
	"github.com/servebench/servebench/servebench/report"
	"github.com/servebench/servebench/servebench/report/render"
	"github.com/servebench/servebench/servebench/score"
)

// TestRunComparesPrefixReuseWithTheWorkloads runs a shared-prefix workload
// (2 groups of 3 rows, grouped, completions: a 20-token system prompt, a
// 20-token context per group, a 4-token question: 44 prompt tokens a row)
// against the simulated engine with prefix caching on (16-token blocks),
// one request at a time so that each finds its predecessors cached.
//
// What the workload declares reusable, per row in order: the first row of
// group 1 nothing (a first request of its prefix cannot hit); its two
// later rows the system prompt and the context (40 each); the first row
// of group 2 only the system prompt (20); its two later rows 40 each:
// 0+40+40+20+40+40 = 180 of 6×44 = 264 prompt tokens (expected hit rate
// 180/264). The engine caches whole blocks only: 32 of each 40 (two
// blocks) and 16 of the 20 (one block): 32+32+16+32+32 = 144, so the
// reuse achieved is 144/180 = 0.8.
func TestRunComparesPrefixReuseWithTheWorkloads(t *testing.T) {
	srv := simengine.StartTest(t, func(c *simengine.Config) { c.TimeScale = 0.1; c.PrefixCaching = true })
	g := fixtures.SharedPrefix{Seed: 3, Groups: 2, RequestsPerGroup: 3, SystemPromptTokens: 20, ContextTokens: 20,
		QuestionTokens: 4, MaxTokens: 2, Output: fixtures.OutputForced, Endpoint: "completions", Order: "grouped"}
	var buf bytes.Buffer
	if _, err := g.Generate(&buf); err != nil {
		t.Fatal(err)
	}
	w := workloadOf(t, buf.String())
	var declared []int
	for _, r := range w.Requests {
		declared = append(declared, *r.ReusablePromptTokens)
	}
	if got := fmt.Sprint(declared); got != "[0 40 40 20 40 40]" {
		t.Fatalf("rows declare %s reusable tokens, want [0 40 40 20 40 40]", got)
	}
	dir := t.TempDir()
	res, err := servebench.Run(context.Background(), servebench.RunConfig{
		Workload: w, Arrival: constant(t, 50), Count: 6, MaxConcurrency: 1, Client: clientFor(srv), OutputDir: dir,
	})
	if err != nil {
		t.Fatal(err)
	}
	check := func(what string, pc *report.PrefixCache) {
		t.Helper()
		if pc == nil || pc.RequestsReporting != 6 || pc.PromptTokens != 264 || pc.CachedTokens != 144 ||
			pc.ExpectedCachedTokens == nil || *pc.ExpectedCachedTokens != 180 ||
			pc.ExpectedHitRate == nil || *pc.ExpectedHitRate != 180.0/264 || pc.ReuseAchieved == nil || *pc.ReuseAchieved != 0.8 {
			t.Fatalf("%s prefix cache %+v, want 144 cached of 180 expected (0.8) of 264 prompt tokens", what, pc)
		}
	}
	check("run", res.Report.PrefixCache)
	for _, o := range outcomesOf(t, res) {
		if o.ReusablePromptTokens == nil {
			t.Fatalf("request %s: the outcome lacks its row's reusable_prompt_tokens", o.ID)
		}
	}
	again, err := score.RunDir(dir, score.Options{})
	if err != nil {
		t.Fatal(err)
	}
	check("rescored", again.PrefixCache)
	var text strings.Builder
	if err := render.Text(&text, res.Report); err != nil {
		t.Fatal(err)
	}
	if want := "engine cached 144 of the 180 tokens the workload makes reusable (80.0%)"; !strings.Contains(text.String(), want) {
		t.Fatalf("text report lacks %q:\n%s", want, text.String())
	}
}
