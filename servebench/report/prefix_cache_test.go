package report

import (
	"math"
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
