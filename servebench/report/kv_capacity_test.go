package report_test

import (
	"reflect"
	"testing"

	"github.com/servebench/servebench/servebench/report"
)

// Two engines of 4096 and 2048 blocks of 16 tokens hold 98304 tokens; a
// gauge without block_size gives no capacity.
func TestKVCapacityTokens(t *testing.T) {
	em := &report.EngineMetrics{Gauges: map[string]float64{
		`vllm:cache_config_info{block_size="16",engine="0",num_gpu_blocks="4096"}`: 1,
		`vllm:cache_config_info{block_size="16",engine="1",num_gpu_blocks="2048"}`: 1,
	}}
	if n, ok := em.KVCapacityTokens(); !ok || n != 98304 {
		t.Fatalf("capacity %d %v, want 98304", n, ok)
	}
	em = &report.EngineMetrics{Gauges: map[string]float64{`vllm:cache_config_info{num_gpu_blocks="4096"}`: 1}}
	if _, ok := em.KVCapacityTokens(); ok {
		t.Fatal("a capacity without block_size")
	}
}

// 300 device-cached and 100 host-cached of 1000 prompt tokens: 0.3 and 0.1.
func TestPrefixCacheHitRateByTier(t *testing.T) {
	em := &report.EngineMetrics{Counters: map[string]float64{
		`sglang:cached_tokens_total{cache_source="device",model_name="m"}`: 300,
		`sglang:cached_tokens_total{cache_source="host",model_name="m"}`:   100,
		`sglang:prompt_tokens_total{model_name="m"}`:                       1000,
	}}
	if got := em.PrefixCacheHitRateByTier(); !reflect.DeepEqual(got, map[string]float64{"device": 0.3, "host": 0.1}) {
		t.Fatalf("got %v", got)
	}
	if got := (&report.EngineMetrics{Counters: map[string]float64{`vllm:prefix_cache_hits_total`: 5}}).PrefixCacheHitRateByTier(); got != nil {
		t.Fatalf("without tiers: %v", got)
	}
}
