package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/servebench/servebench/fixtures/simengine"
	"github.com/servebench/servebench/servebench/compare"
)

// The recipe of docs/release-qualification.md, "speculation on against off
// on the same workload": the baseline engine decodes one token per 8 ms
// step; the candidate is the same engine with a draft model of 3 tokens
// accepted with probability 0.8 each, so a step yields 1 + 0.8 + 0.64 +
// 0.512 = 2.95 tokens on average. ab with both caches reset and forced
// 32-token outputs finds no regression, the whole confidence interval of
// the candidate's p50 TPOT change lies below 0 (faster), the candidate's
// rounds report a mean acceptance length above 1 and the baseline's no
// speculative_decoding block.
func TestABSpeculationOnAgainstOff(t *testing.T) {
	off := func(c *simengine.Config) { c.TimeScale, c.PrefixCaching = 1, true }
	on := func(c *simengine.Config) {
		c.TimeScale, c.PrefixCaching, c.SpecTokens, c.SpecAcceptance = 1, true, 3, 0.8
	}
	baseURL, candURL := startSim(t, off), startSim(t, on)
	rows := `{"id":"a","prompt":"is the pager quiet","max_tokens":32,"ignore_eos":true}
{"id":"b","prompt":"summarize the incident","max_tokens":32,"ignore_eos":true}
`
	out := filepath.Join(t.TempDir(), "ab")
	code, stdout, stderr := runCLI("ab", "--baseline-url", baseURL, "--candidate-url", candURL, "--model", "simengine-tiny",
		"--baseline-metrics-url", baseURL+"/metrics", "--candidate-metrics-url", candURL+"/metrics", "--reset-prefix-cache",
		"--endpoint", "completions", "--workload", writeWorkload(t, rows), "--arrival", "poisson", "--rate", "10",
		"--seed", "7", "--count", "6", "--rounds", "2", "--schedule-lag-tolerance", "2s", "--tolerance", "tpot_p50=5%", "--output", out)
	if code != 0 {
		t.Fatalf("exit %d, want 0; stdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	b, err := os.ReadFile(filepath.Join(out, compare.ComparisonFile))
	if err != nil {
		t.Fatal(err)
	}
	var c struct {
		Comparisons []struct {
			Name   string  `json:"name"`
			CIHigh float64 `json:"ci_high"`
		} `json:"comparisons"`
	}
	if err := json.Unmarshal(b, &c); err != nil {
		t.Fatal(err)
	}
	if len(c.Comparisons) != 1 || c.Comparisons[0].Name != "tpot_p50" || !(c.Comparisons[0].CIHigh < 0) {
		t.Fatalf("comparisons %+v, want tpot_p50 with its whole interval below 0", c.Comparisons)
	}
	for _, round := range []string{"round-1", "round-2"} {
		cand, base := readReport(t, filepath.Join(out, "candidate", round)), readReport(t, filepath.Join(out, "baseline", round))
		if sd := cand.SpeculativeDecoding; sd == nil || sd.MeanAcceptanceLength == nil || !(*sd.MeanAcceptanceLength > 1) || sd.DraftTokens != 3*sd.Drafts {
			t.Fatalf("candidate %s: speculative decoding %+v, want a mean acceptance length above 1 and 3 draft tokens per draft", round, sd)
		}
		if base.SpeculativeDecoding != nil || base.CacheState != "reset" || cand.CacheState != "reset" {
			t.Fatalf("%s: baseline speculation %+v, cache states %q and %q; want none, reset, reset", round, base.SpeculativeDecoding, base.CacheState, cand.CacheState)
		}
	}
}
