package report

import (
	"bytes"
	"math"
	"strings"
	"testing"
)

// TestEnginePrefixCacheHitRate computes each engine's rate by hand from
// counter increases and gauges.
func TestEnginePrefixCacheHitRate(t *testing.T) {
	cases := []struct {
		name     string
		counters map[string]float64
		gauges   map[string]float64
		want     *float64
	}{
		// vLLM: (30 + 10) hit of (100 + 60) queried tokens over two label sets.
		{"vllm", map[string]float64{
			`vllm:prefix_cache_hits_total{model_name="a"}`: 30, `vllm:prefix_cache_queries_total{model_name="a"}`: 100,
			`vllm:prefix_cache_hits_total{model_name="b"}`: 10, `vllm:prefix_cache_queries_total{model_name="b"}`: 60,
		}, nil, new(0.25)},
		{"vllm nothing queried", map[string]float64{"vllm:prefix_cache_hits_total": 0, "vllm:prefix_cache_queries_total": 0}, nil, nil},
		{"vllm no hit", map[string]float64{"vllm:prefix_cache_hits_total": 0, "vllm:prefix_cache_queries_total": 80}, nil, new(0.0)},
		// SGLang: device 50 + host 25 cached of 300 prompt tokens; the
		// gauge is not used when the counters are there.
		{"sglang counters", map[string]float64{
			`sglang:cached_tokens_total{cache_source="device"}`: 50, `sglang:cached_tokens_total{cache_source="host"}`: 25,
			"sglang:prompt_tokens_total": 300,
		}, map[string]float64{"sglang:cache_hit_rate": 0.9}, new(0.25)},
		{"sglang gauge", map[string]float64{"sglang:prompt_tokens_total": 300},
			map[string]float64{`sglang:cache_hit_rate{tp_rank="0"}`: 0.5, `sglang:cache_hit_rate{tp_rank="1"}`: 0.3}, new(0.4)},
		{"no prefix-cache metric", map[string]float64{"vllm:prompt_tokens_total": 500}, map[string]float64{"vllm:kv_cache_usage_perc": 0.5}, nil},
	}
	for _, c := range cases {
		got := (&EngineMetrics{Counters: c.counters, Gauges: c.gauges}).PrefixCacheHitRate()
		if (got == nil) != (c.want == nil) || (got != nil && math.Abs(*got-*c.want) > 1e-12) {
			t.Errorf("%s: rate %v, want %v", c.name, deref(got), deref(c.want))
		}
	}
	if (*EngineMetrics)(nil).PrefixCacheHitRate() != nil {
		t.Error("a rate without engine metrics")
	}
}

func deref(p *float64) any {
	if p == nil {
		return nil
	}
	return *p
}

// TestSetEnginePrefixCacheHitRate: the engine's rate makes the object
// when no request reported, and the object goes when neither did.
func TestSetEnginePrefixCacheHitRate(t *testing.T) {
	r := &Report{}
	r.SetEnginePrefixCacheHitRate(nil)
	if r.PrefixCache != nil {
		t.Fatal("an object with nothing measured")
	}
	r.SetEnginePrefixCacheHitRate(new(0.5))
	if r.PrefixCache == nil || *r.PrefixCache.EngineHitRate != 0.5 || r.PrefixCache.RequestsReporting != 0 {
		t.Fatalf("prefix cache %+v, want the engine's 0.5 alone", r.PrefixCache)
	}
	r.SetEnginePrefixCacheHitRate(nil)
	if r.PrefixCache != nil {
		t.Fatal("the object stayed with neither rate")
	}
	r.PrefixCache = &PrefixCache{RequestsReporting: 1, CachedTokens: 0, PromptTokens: 10, HitRate: new(0.0)}
	r.SetEnginePrefixCacheHitRate(nil)
	if r.PrefixCache == nil || r.PrefixCache.EngineHitRate != nil {
		t.Fatal("the requests' figures were dropped")
	}
}

// TestPrefixCacheInTextAndHTML: one line in the text report, one row in
// the HTML report, both with the requests' and the engine's rate.
func TestPrefixCacheInTextAndHTML(t *testing.T) {
	r := &Report{Schema: ReportSchema, WindowMS: [2]float64{0, 1000}, HorizonMS: 1000,
		PrefixCache: &PrefixCache{RequestsReporting: 3, CachedTokens: 192, PromptTokens: 768, HitRate: new(0.25), EngineHitRate: new(0.3)}}
	want := "25.0% of prompt tokens (192 / 768, reported by 3 successful requests); engine counters 30.0%"
	var text bytes.Buffer
	if err := r.WriteText(&text); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(text.String(), "Prefix cache hit rate:"); n != 1 || !strings.Contains(text.String(), want) {
		t.Fatalf("text report has %d prefix-cache lines, want one with %q:\n%s", n, want, text.String())
	}
	var html bytes.Buffer
	if err := r.WriteHTML(&html); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(html.String(), "Prefix cache hit rate") || !strings.Contains(html.String(), want) {
		t.Fatal("the HTML report has no prefix-cache row")
	}
	r.PrefixCache = &PrefixCache{EngineHitRate: new(0.5)}
	text.Reset()
	_ = r.WriteText(&text)
	if !strings.Contains(text.String(), "no request reported cached_tokens; engine counters 50.0%") {
		t.Fatalf("text report without reporting requests:\n%s", text.String())
	}
	r.PrefixCache = nil
	text.Reset()
	_ = r.WriteText(&text)
	if strings.Contains(text.String(), "Prefix cache") {
		t.Fatal("a prefix-cache line with nothing measured")
	}
}

// TestExpectedPrefixReuseInTextAndHTML: with 256 tokens declared reusable
// and 192 cached, both reports say "engine cached 192 of the 256 tokens the
// workload makes reusable (75.0%)"; without a declaration neither has the
// line.
func TestExpectedPrefixReuseInTextAndHTML(t *testing.T) {
	r := &Report{Schema: ReportSchema, WindowMS: [2]float64{0, 1000}, HorizonMS: 1000,
		PrefixCache: &PrefixCache{RequestsReporting: 3, CachedTokens: 192, PromptTokens: 768, HitRate: new(0.25),
			ExpectedCachedTokens: new(256), ExpectedHitRate: new(256.0 / 768), ReuseAchieved: new(0.75)}}
	want := "engine cached 192 of the 256 tokens the workload makes reusable (75.0%)"
	var text, html bytes.Buffer
	if err := r.WriteText(&text); err != nil {
		t.Fatal(err)
	}
	if err := r.WriteHTML(&html); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(text.String(), "Expected prefix reuse:") || !strings.Contains(text.String(), want) {
		t.Fatalf("text report lacks %q:\n%s", want, text.String())
	}
	if !strings.Contains(html.String(), "Expected prefix reuse") || !strings.Contains(html.String(), want) {
		t.Fatal("the HTML report has no expected-reuse row")
	}
	r.PrefixCache.ExpectedCachedTokens, r.PrefixCache.ExpectedHitRate, r.PrefixCache.ReuseAchieved = nil, nil, nil
	text.Reset()
	html.Reset()
	_ = r.WriteText(&text)
	_ = r.WriteHTML(&html)
	if strings.Contains(text.String(), "Expected prefix reuse") || strings.Contains(html.String(), "Expected prefix reuse") {
		t.Fatal("an expected-reuse line without a declaration")
	}
}
