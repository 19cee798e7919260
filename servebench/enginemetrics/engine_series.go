package enginemetrics

import (
	"context"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/servebench/servebench/internal/redact"
	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/servebench/report"
)

const (
	// maxEngineSamples bounds a series whatever the run's length.
	maxEngineSamples = 2048
	// DefaultInterval is the scrape interval when RunConfig leaves
	// it 0.
	DefaultInterval = 5 * time.Second
)

// engineNames maps each engine's metric names to the four quantities.
// Every name listed for a quantity is tried in order; the first present
// wins. The simulated engine exposes vLLM's names.
var engineNames = []struct {
	engine                             string
	queue, running, kvUsage, preempted []string
}{
	{engine: "vllm",
		queue: []string{"vllm:num_requests_waiting"}, running: []string{"vllm:num_requests_running"},
		kvUsage:   []string{"vllm:kv_cache_usage_perc", "vllm:gpu_cache_usage_perc"},
		preempted: []string{"vllm:num_preemptions_total", "vllm:num_preemptions"}},
	{engine: "sglang",
		queue: []string{"sglang:num_queue_reqs"}, running: []string{"sglang:num_running_reqs"},
		kvUsage: []string{"sglang:token_usage"}},
	{engine: "tgi",
		queue: []string{"tgi_queue_size"}, running: []string{"tgi_batch_current_size"}},
	{engine: "llama.cpp",
		queue: []string{"llamacpp:requests_deferred"}, running: []string{"llamacpp:requests_processing"},
		kvUsage: []string{"llamacpp:kv_cache_usage_ratio"}},
}

// baseName is a series name without its labels.
func baseName(series string) string {
	if i := strings.IndexByte(series, '{'); i >= 0 {
		return series[:i]
	}
	return series
}

// engineSampleOf maps a scrape onto the quantities; mapped reports which
// series it used, so that the rest are kept by name.
func engineSampleOf(s *metricsSnapshot) (sample report.EngineSample, engine string, mapped map[string]bool) {
	mapped = map[string]bool{}
	pick := func(names []string, values map[string]float64, combine func(a, b float64) float64) *float64 {
		for _, name := range names {
			var v *float64
			for series, x := range values {
				if baseName(series) != name {
					continue
				}
				mapped[series] = true
				if v == nil {
					v = new(x)
				} else {
					*v = combine(*v, x)
				}
			}
			if v != nil {
				return v
			}
		}
		return nil
	}
	sum := func(a, b float64) float64 { return a + b }
	for _, e := range engineNames {
		q := pick(e.queue, s.gauges, sum)
		r := pick(e.running, s.gauges, sum)
		kv := pick(e.kvUsage, s.gauges, func(a, b float64) float64 { return max(a, b) })
		p := pick(e.preempted, s.counters, sum)
		if q == nil && r == nil && kv == nil && p == nil {
			continue
		}
		return report.EngineSample{QueueLength: q, Running: r, KVCacheUsage: kv, Preemptions: p}, e.engine, mapped
	}
	return report.EngineSample{}, "", mapped
}

// Sampler scrapes every interval until stopped.
type Sampler struct {
	url    string
	cancel context.CancelFunc
	done   chan struct{}

	mu       sync.Mutex
	series   report.EngineSeries
	baseline *float64 // preemption counter at the first sample that had it
}

// StartSampler starts scraping url every interval; times are
// measured from t0. A failed scrape is recorded as a sample with its
// error, and scraping goes on.
func StartSampler(ctx context.Context, url string, interval time.Duration, t0 time.Time) *Sampler {
	ctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	s := &Sampler{url: url, cancel: cancel, done: make(chan struct{}),
		series: report.EngineSeries{URL: redact.URL(url), IntervalMS: record.Millis(interval)}}
	go func() {
		defer close(s.done)
		for every := interval; ; {
			s.sample(ctx, t0)
			s.mu.Lock()
			if len(s.series.Samples) >= maxEngineSamples {
				s.thin()
				every *= 2
			}
			s.mu.Unlock()
			select {
			case <-ctx.Done():
				return
			case <-time.After(every):
			}
		}
	}()
	return s
}

// sample scrapes once and appends the sample.
func (s *Sampler) sample(ctx context.Context, t0 time.Time) {
	snap, err := scrapeMetrics(ctx, s.url)
	at := record.Millis(time.Since(t0))
	if ctx.Err() != nil {
		return // stopped while scraping: not a failure of the engine
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if err != nil {
		s.series.Samples = append(s.series.Samples, report.EngineSample{AtMS: at, Error: redact.URLSecretsIn(err.Error(), s.url)})
		s.series.FailedScrapes++
		return
	}
	sample, engine, mapped := engineSampleOf(snap)
	sample.AtMS = at
	if engine != "" {
		s.series.Engine = engine
	}
	if sample.Preemptions != nil {
		if s.baseline == nil {
			s.baseline = new(*sample.Preemptions)
		}
		*sample.Preemptions -= *s.baseline
	}
	var other []string
	for series := range snap.gauges {
		if !mapped[series] {
			other = append(other, series)
		}
	}
	slices.Sort(other)
	if len(other) > 0 {
		sample.Other = map[string]float64{}
		for _, k := range other[:min(len(other), report.MaxOtherGauges)] {
			sample.Other[k] = snap.gauges[k]
		}
	}
	s.series.Samples = append(s.series.Samples, sample)
}

// thin keeps every other sample and doubles the interval. Called with mu
// held.
func (s *Sampler) thin() {
	kept := s.series.Samples[:0]
	for i, x := range s.series.Samples {
		if i%2 == 0 {
			kept = append(kept, x)
		}
	}
	s.series.Samples = kept
	s.series.IntervalMS *= 2
}

// stop ends scraping and returns the series.
func (s *Sampler) stop() *report.EngineSeries {
	s.cancel()
	<-s.done
	s.mu.Lock()
	defer s.mu.Unlock()
	out := s.series
	return &out
}

// StopIfStarted stops a sampler; nil for none.
func (s *Sampler) StopIfStarted() *report.EngineSeries {
	if s == nil {
		return nil
	}
	return s.stop()
}
