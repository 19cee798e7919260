package servebench_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/servebench/servebench/servebench"
	"github.com/servebench/servebench/servebench/openai"
	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/servebench/schedule"
)

// fastStream answers every completions request at once with eight one-token
// events, usage and [DONE]: a server that costs nothing, so what a
// benchmark measures is the client and the dispatcher.
func fastStream(w http.ResponseWriter, r *http.Request) {
	_, _ = io.Copy(io.Discard, r.Body)
	w.Header().Set("Content-Type", "text/event-stream")
	for range 8 {
		_, _ = io.WriteString(w, "data: {\"choices\":[{\"index\":0,\"text\":\" x\",\"finish_reason\":null}]}\n\n")
	}
	_, _ = io.WriteString(w, "data: {\"choices\":[],\"usage\":{\"prompt_tokens\":2,\"completion_tokens\":8,\"total_tokens\":10}}\n\ndata: [DONE]\n\n")
}

// BenchmarkDispatcher runs 1,000 Poisson arrivals at 1,000 requests/s
// against a local server that answers at once, and reports the schedule
// lag the dispatcher added (p99 and max, in ms) and the delivered fraction
// of the schedule's rate. ns/op is one whole run (about one second).
//
//	go test -run '^$' -bench Dispatcher -benchtime 3x ./servebench
func BenchmarkDispatcher(b *testing.B) {
	srv := httptest.NewServer(http.HandlerFunc(fastStream))
	defer srv.Close()
	w, err := schedule.ParseWorkload("bench.jsonl", []byte(`{"prompt":"p","max_tokens":8}`))
	if err != nil {
		b.Fatal(err)
	}
	client := &openai.Client{BaseURL: srv.URL, Model: "m", Endpoint: record.EndpointCompletions,
		TotalTimeout: 10 * time.Second}
	var p99, worst, delivered float64
	b.ResetTimer()
	for i := range b.N {
		a, _ := schedule.NewArrival(schedule.ArrivalSpec{Process: "poisson", RateRPS: 1000, Seed: int64(i + 1)})
		res, err := servebench.Run(context.Background(), servebench.RunConfig{
			Workload: w, Arrival: a, Count: 1000, Client: client, OutputDir: b.TempDir(),
		})
		if err != nil {
			b.Fatal(err)
		}
		lag := res.Report.Percentiles[record.MetricScheduleLag]
		p99 = max(p99, *lag.P99)
		worst = max(worst, *lag.Max)
		g := res.Report.Generator
		delivered += *g.DeliveredRPS / *g.IdealRPS
		if res.Report.ProtocolSuccesses != 1000 {
			b.Fatalf("%d of 1000 succeeded", res.Report.ProtocolSuccesses)
		}
	}
	b.ReportMetric(p99, "p99-lag-ms")
	b.ReportMetric(worst, "max-lag-ms")
	b.ReportMetric(delivered/float64(b.N), "delivered/ideal")
}

// BenchmarkDispatcherBesideReaders is BenchmarkDispatcher on one processor
// (GOMAXPROCS 1, as loadcheck pair's pinned client runs) beside 1,000
// goroutines woken 50 at a time every millisecond, each working about
// 10 µs, as stream readers woken by the network poller are: 2,000 Poisson
// arrivals at 500 requests/s. It reports the schedule lag's p99 and max
// (ms), the requests sent more than 20 ms late (the default tolerance), and
// the Go scheduler's latency p99 over the run (ms). A dispatcher whose wait
// holds the processor (a sleep in the kernel) stalls the request it has
// just started and the readers; one that parks does not. A measurement of
// the machine, not a target:
//
//	go test -run '^$' -bench DispatcherBesideReaders -benchtime 2x ./servebench
func BenchmarkDispatcherBesideReaders(b *testing.B) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	srv := httptest.NewServer(http.HandlerFunc(fastStream))
	defer srv.Close()
	stop := startBusyReaders(1000, 50, 10*time.Microsecond)
	defer stop()
	w, err := schedule.ParseWorkload("bench.jsonl", []byte(`{"prompt":"p","max_tokens":8}`))
	if err != nil {
		b.Fatal(err)
	}
	client := &openai.Client{BaseURL: srv.URL, Model: "m", Endpoint: record.EndpointCompletions,
		TotalTimeout: 10 * time.Second}
	var p99, worst, sched float64
	late := 0
	b.ResetTimer()
	for i := range b.N {
		a, _ := schedule.NewArrival(schedule.ArrivalSpec{Process: "poisson", RateRPS: 500, Seed: int64(i + 1)})
		res, err := servebench.Run(context.Background(), servebench.RunConfig{
			Workload: w, Arrival: a, Count: 2000, Client: client, OutputDir: b.TempDir(),
		})
		if err != nil {
			b.Fatal(err)
		}
		lag := res.Report.Percentiles[record.MetricScheduleLag]
		p99 = max(p99, *lag.P99)
		worst = max(worst, *lag.Max)
		late += res.Report.LateCount
		if s := res.Report.Generator.SchedulerLatencyP99MS; s != nil {
			sched = max(sched, *s)
		}
		if res.Report.ProtocolSuccesses != 2000 {
			b.Fatalf("%d of 2000 succeeded", res.Report.ProtocolSuccesses)
		}
	}
	b.ReportMetric(p99, "p99-lag-ms")
	b.ReportMetric(worst, "max-lag-ms")
	b.ReportMetric(float64(late)/float64(b.N), "late/run")
	b.ReportMetric(sched, "sched-p99-ms")
}

// startBusyReaders starts n goroutines that a driver wakes in groups of
// group every millisecond, in turn; each works for work when woken. stop
// ends them.
func startBusyReaders(n, group int, work time.Duration) (stop func()) {
	var done atomic.Bool
	var wg sync.WaitGroup
	wake := make([]chan struct{}, n)
	for i := range wake {
		wake[i] = make(chan struct{}, 1)
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range wake[i] {
				for end := time.Now().Add(work); time.Now().Before(end); {
				}
			}
		}()
	}
	wg.Add(1)
	go func() {
		defer wg.Done()
		tick := time.NewTicker(time.Millisecond)
		defer tick.Stop()
		for next := 0; !done.Load(); {
			<-tick.C
			for range group {
				select {
				case wake[next] <- struct{}{}:
				default:
				}
				next = (next + 1) % n
			}
		}
		for _, c := range wake {
			close(c)
		}
	}()
	return func() { done.Store(true); wg.Wait() }
}
