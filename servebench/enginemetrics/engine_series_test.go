package enginemetrics

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/servebench/servebench/servebench/report"
)

// serveMetrics serves an exposition text on loopback.
func serveMetrics(t *testing.T, text string) string {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain; version=0.0.4")
		_, _ = w.Write([]byte(text))
	}))
	t.Cleanup(srv.Close)
	return srv.URL + "/metrics"
}

// TestEngineSampleNames maps each engine's own names onto the four
// quantities, summing queue and running over label sets and keeping the
// largest KV usage.
func TestEngineSampleNames(t *testing.T) {
	for _, tc := range []struct {
		engine, text                 string
		queue, running, kv, preempts *float64
		other                        string
	}{
		{"vllm", `# TYPE vllm:num_requests_waiting gauge
vllm:num_requests_waiting{model_name="a"} 3
vllm:num_requests_waiting{model_name="b"} 2
# TYPE vllm:num_requests_running gauge
vllm:num_requests_running{model_name="a"} 7
# TYPE vllm:gpu_cache_usage_perc gauge
vllm:gpu_cache_usage_perc{model_name="a"} 0.25
vllm:gpu_cache_usage_perc{model_name="b"} 0.5
# TYPE vllm:num_preemptions_total counter
vllm:num_preemptions_total{model_name="a"} 4
# TYPE vllm:cache_config_info gauge
vllm:cache_config_info{block_size="16"} 1
`, new(5.0), new(7.0), new(0.5), new(4.0), `vllm:cache_config_info{block_size="16"}`},
		{"sglang", `# TYPE sglang:num_queue_reqs gauge
sglang:num_queue_reqs{model_name="m"} 9
# TYPE sglang:num_running_reqs gauge
sglang:num_running_reqs{model_name="m"} 12
# TYPE sglang:token_usage gauge
sglang:token_usage{model_name="m"} 0.28
`, new(9.0), new(12.0), new(0.28), nil, ""},
		{"tgi", `# TYPE tgi_queue_size gauge
tgi_queue_size 4
# TYPE tgi_batch_current_size gauge
tgi_batch_current_size 16
`, new(4.0), new(16.0), nil, nil, ""},
		{"llama.cpp", `# TYPE llamacpp:requests_processing gauge
llamacpp:requests_processing 2
# TYPE llamacpp:requests_deferred gauge
llamacpp:requests_deferred 1
`, new(1.0), new(2.0), nil, nil, ""},
	} {
		snap, err := scrapeMetrics(context.Background(), serveMetrics(t, tc.text))
		if err != nil {
			t.Fatal(err)
		}
		s, engine, mapped := engineSampleOf(snap)
		eq := func(a, b *float64) bool { return (a == nil) == (b == nil) && (a == nil || *a == *b) }
		if engine != tc.engine || !eq(s.QueueLength, tc.queue) || !eq(s.Running, tc.running) || !eq(s.KVCacheUsage, tc.kv) || !eq(s.Preemptions, tc.preempts) {
			t.Fatalf("%s: engine %q sample %+v", tc.engine, engine, s)
		}
		if tc.other != "" && mapped[tc.other] {
			t.Fatalf("%s: %s was mapped", tc.engine, tc.other)
		}
	}
}

// TestEngineSamplerRecordsFailures scrapes an endpoint that answers 500:
// every sample carries the error and the sampler keeps going.
func TestEngineSamplerRecordsFailures(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "down", http.StatusInternalServerError)
	}))
	defer srv.Close()
	s := StartSampler(context.Background(), srv.URL, 20*time.Millisecond, time.Now())
	deadline := time.Now().Add(10 * time.Second)
	for {
		s.mu.Lock()
		n := len(s.series.Samples)
		s.mu.Unlock()
		if n >= 3 || time.Now().After(deadline) {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	es := s.stop()
	if len(es.Samples) < 3 || es.FailedScrapes != len(es.Samples) || !strings.Contains(es.Samples[0].Error, "HTTP 500") {
		t.Fatalf("series %+v", es)
	}
}

// TestEngineSeriesThinsAndAttaches checks that a full series keeps every
// other sample at twice the interval, and that the drift intervals get
// the mean KV usage of the samples inside them.
func TestEngineSeriesThinsAndAttaches(t *testing.T) {
	s := &Sampler{series: report.EngineSeries{IntervalMS: 100}}
	for i := range 6 {
		s.series.Samples = append(s.series.Samples, report.EngineSample{AtMS: float64(i * 100), KVCacheUsage: new(float64(i) / 10)})
	}
	s.thin()
	if len(s.series.Samples) != 3 || s.series.IntervalMS != 200 || s.series.Samples[1].AtMS != 200 {
		t.Fatalf("thinned %+v", s.series)
	}
	r := &report.Report{Drift: &report.DriftReport{IntervalMS: 300, Intervals: []report.DriftInterval{{StartMS: 0}, {StartMS: 300}, {StartMS: 600}}}}
	r.AttachEngineSeries(&s.series)
	// Samples at 0 (0.0), 200 (0.2) and 400 (0.4): the first interval's
	// mean is 0.1, the second's 0.4, the third has none.
	if iv := r.Drift.Intervals; iv[0].KVCacheUsage == nil || *iv[0].KVCacheUsage != 0.1 || *iv[1].KVCacheUsage != 0.4 || iv[2].KVCacheUsage != nil {
		t.Fatalf("intervals %+v", r.Drift.Intervals)
	}
}
