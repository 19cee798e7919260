package servebench_test

import (
	"context"
	"strings"
	"testing"

	"github.com/servebench/servebench/fixtures/simengine"
	"github.com/servebench/servebench/servebench"
	"github.com/servebench/servebench/servebench/openai"
	"github.com/servebench/servebench/servebench/report"
)

func TestRunFlagsForcedLengthsTheEngineCannotHonour(t *testing.T) {
	srv := simengine.StartTest(t, func(c *simengine.Config) {
		c.TimeScale = 0.1
		c.OutputMeanTokens, c.OutputMinTokens = 3, 1 // natural answers are short
	})
	w := workloadOf(t, `{"id":"forced","prompt":"write a lot","max_tokens":40,"ignore_eos":true}
{"id":"natural","prompt":"write a little","max_tokens":40}
`)
	run := func(lc openai.LengthControl) *report.Report {
		c := clientFor(srv)
		c.LengthControl = lc
		res, err := servebench.Run(context.Background(), servebench.RunConfig{
			Workload: w, Arrival: constant(t, 20), Count: 4, Client: c, OutputDir: t.TempDir(),
		})
		if err != nil {
			t.Fatal(err)
		}
		return res.Report
	}
	// The engine is told to ignore EOS: both forced requests come back at
	// max_tokens, and the natural rows are not counted.
	if c := run(openai.LengthIgnoreEOS).OutputLengths; c == nil || c.Forced != 2 || c.NotEnforceable != 0 || c.ShortOfMaxTokens != 0 {
		t.Fatalf("ignore_eos sent: check %+v, want 2 forced, all enforced and at max_tokens", c)
	}
	// An engine that cannot be asked: the rows are flagged and their
	// natural lengths show up as short.
	rep := run(openai.LengthUnsupported)
	c := rep.OutputLengths
	if c == nil || c.Forced != 2 || c.NotEnforceable != 2 || c.ShortOfMaxTokens != 2 {
		t.Fatalf("unsupported: check %+v, want 2 forced, 2 not enforceable, 2 short", c)
	}
	found := false
	for _, n := range rep.Experiment.Notes {
		found = found || strings.HasPrefix(n, "2 requests forced their output length (ignore_eos) but the engine cannot")
	}
	if !found {
		t.Fatalf("experiment notes %q do not flag the 2 unenforceable requests", rep.Experiment.Notes)
	}
}

func TestRunComparesIntendedAndReportedPromptTokens(t *testing.T) {
	srv := simengine.StartTest(t, func(c *simengine.Config) { c.TimeScale = 0.1 })
	// The simulated engine counts a completions prompt as its words: 4
	// and 2 tokens. The second row claims 40: off by 38, beyond the
	// allowed max(16 tokens, 5 %).
	w := workloadOf(t, `{"id":"right","prompt":"one two three four","max_tokens":2,"prompt_tokens":4}
{"id":"wrong","prompt":"five six","max_tokens":2,"prompt_tokens":40}
{"id":"silent","prompt":"seven","max_tokens":2}
`)
	res, err := servebench.Run(context.Background(), servebench.RunConfig{
		Workload: w, Arrival: constant(t, 30), Count: 3, Client: clientFor(srv), OutputDir: t.TempDir(),
	})
	if err != nil {
		t.Fatal(err)
	}
	c := res.Report.PromptTokens
	if c == nil || c.Compared != 2 || c.Mismatched != 1 || c.MeanDifference == nil || *c.MeanDifference != -19 {
		t.Fatalf("prompt token check %+v, want 2 compared, 1 mismatched, mean difference (0-38)/2 = -19", c)
	}
	if len(c.Examples) != 1 || c.Examples[0] != "wrong: requested 40 prompt tokens, engine reported 2 (-38, beyond the allowed ±16)" {
		t.Fatalf("examples %q", c.Examples)
	}
}
