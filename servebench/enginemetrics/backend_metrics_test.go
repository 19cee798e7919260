package enginemetrics

import (
	"context"
	"fmt"
	"math"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
)

// TestPrefixCacheHitRateFromTwoScrapes: the hit rate is the counters'
// growth between the scrapes, not their totals.
func TestPrefixCacheHitRateFromTwoScrapes(t *testing.T) {
	// The first scrape says 10 hits of 100 queried tokens, the second 40 of
	// 200: 30 / 100 = 0.3 over the measurement.
	var calls atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		k := calls.Add(1)
		fmt.Fprintf(w, "# TYPE vllm:prefix_cache_hits_total counter\nvllm:prefix_cache_hits_total{model_name=\"m\"} %d\n", 10+30*(k-1))
		fmt.Fprintf(w, "# TYPE vllm:prefix_cache_queries_total counter\nvllm:prefix_cache_queries_total{model_name=\"m\"} %d\n", 100*k)
	}))
	defer srv.Close()
	urls := []string{srv.URL}
	before := ScrapeEach(context.Background(), urls)
	after := ScrapeEach(context.Background(), urls)
	bm := Backends(urls, before, after, nil)
	if len(bm) != 1 || bm[0].PrefixCacheHitRate == nil || math.Abs(*bm[0].PrefixCacheHitRate-0.3) > 1e-12 {
		t.Fatalf("backend metrics %+v", bm)
	}
}
