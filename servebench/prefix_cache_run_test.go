package servebench_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/servebench/servebench/fixtures/simengine"
	"github.com/servebench/servebench/servebench"
	"github.com/servebench/servebench/servebench/report"
	"github.com/servebench/servebench/servebench/score"
)

// TestRunMeasuresPrefixCacheBothWays runs a workload whose prompts share a
// 64-token prefix (four 16-token blocks) against the simulated engine with
// prefix caching on. The warmup prefills the prefix, so every measured
// request finds at least those 64 tokens cached whatever the timing. The
// report's hit rate from the requests' usage is then non-zero and equal
// to the engine's from its counters (the same admissions, between the
// same scrapes), and scoring the run again keeps both.
func TestRunMeasuresPrefixCacheBothWays(t *testing.T) {
	srv := simengine.StartTest(t, func(c *simengine.Config) { c.TimeScale = 0.1; c.PrefixCaching = true })
	words := make([]string, 64)
	for i := range words {
		words[i] = fmt.Sprintf("s%d", i)
	}
	prefix := strings.Join(words, " ")
	var rows strings.Builder
	for i := range 6 {
		fmt.Fprintf(&rows, `{"prompt":"%s question %d","max_tokens":4,"ignore_eos":true}`+"\n", prefix, i)
	}
	dir := t.TempDir()
	res, err := servebench.Run(context.Background(), servebench.RunConfig{
		Workload: workloadOf(t, rows.String()), Arrival: constant(t, 50), Count: 12, Warmup: 1,
		Client: clientFor(srv), OutputDir: dir, EngineMetrics: servebench.EngineMetricsConfig{URL: srv.BaseURL() + "/metrics"},
	})
	if err != nil {
		t.Fatal(err)
	}
	pc := res.Report.PrefixCache
	if pc == nil || pc.HitRate == nil || pc.EngineHitRate == nil {
		t.Fatalf("prefix cache %+v, want both rates", pc)
	}
	if pc.RequestsReporting != res.Report.ProtocolSuccesses || pc.RequestsReporting != 12 {
		t.Fatalf("%d requests reported cached tokens, %d succeeded, want 12 and 12", pc.RequestsReporting, res.Report.ProtocolSuccesses)
	}
	var cached, prompt int
	buckets := map[string]int{}
	for _, o := range outcomesOf(t, res) {
		if o.CachedTokens == nil || o.PromptTokens == nil || *o.CachedTokens < 64 {
			t.Fatalf("request %s: cached %v of %v prompt tokens, want at least the 64 of the shared prefix", o.ID, o.CachedTokens, o.PromptTokens)
		}
		cached += *o.CachedTokens
		prompt += *o.PromptTokens
		buckets[report.CachedFractionOf(o.CachedTokens, o.PromptTokens)]++
	}
	// The TTFT by cached fraction: one breakdown value per bucket the
	// records fall in, with their counts.
	byFraction := res.Report.Breakdown["cached_fraction"]
	if byFraction == nil || len(byFraction.Values) != len(buckets) {
		t.Fatalf("cached_fraction breakdown %+v, the records fall in %v", byFraction, buckets)
	}
	for b, n := range buckets {
		if v := byFraction.Values[b]; v.Offered != n || v.TTFT.N != n || b == "0%" {
			t.Fatalf("cached fraction %s: %d offered, %d TTFTs; the records have %d (none uncached)", b, v.Offered, v.TTFT.N, n)
		}
	}
	if pc.CachedTokens != cached || pc.PromptTokens != prompt || *pc.HitRate != float64(cached)/float64(prompt) {
		t.Fatalf("prefix cache %+v, the records sum to %d cached of %d", *pc, cached, prompt)
	}
	if *pc.HitRate <= 0 || *pc.EngineHitRate != *pc.HitRate {
		t.Fatalf("hit rate %v from the requests, %v from the engine: want the same, above 0", *pc.HitRate, *pc.EngineHitRate)
	}
	again, err := score.RunDir(dir, score.Options{})
	if err != nil {
		t.Fatal(err)
	}
	a := again.PrefixCache
	if a == nil || a.HitRate == nil || a.EngineHitRate == nil || a.RequestsReporting != pc.RequestsReporting ||
		a.CachedTokens != pc.CachedTokens || a.PromptTokens != pc.PromptTokens || *a.HitRate != *pc.HitRate || *a.EngineHitRate != *pc.EngineHitRate {
		t.Fatalf("rescored prefix cache %+v, the run's %+v", a, *pc)
	}
}
