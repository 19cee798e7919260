package servebench_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
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
