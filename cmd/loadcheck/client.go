package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"net/http"
	"os"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/servebench/servebench/servebench"
	"github.com/servebench/servebench/servebench/openai"
	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/servebench/report"
	"github.com/servebench/servebench/servebench/schedule"
	"github.com/servebench/servebench/servebench/stats"
)

// targets are the client's budgets on a 2-core machine.
type targets struct {
	minDelivered   float64 // fraction of the ideal rate
	maxLagP99MS    float64
	maxAddedP99MS  float64
	maxCPUPerReqMS float64
}

// targetsFor returns the budgets for an offered rate.
func targetsFor(rate float64) targets {
	t := targets{minDelivered: 0.98, maxLagP99MS: 2, maxAddedP99MS: 5, maxCPUPerReqMS: 2}
	if rate <= 200 {
		t.maxAddedP99MS = 3
	}
	return t
}

// client runs one load point against url and prints the figures.
func client(args []string) error {
	fs := flag.NewFlagSet("loadcheck client", flag.ContinueOnError)
	url := fs.String("url", "", "server root URL")
	rate := fs.Float64("rate", 300, "offered rate (requests/s, Poisson)")
	duration := fs.Duration("duration", 20*time.Second, "arrival window")
	tokens := fs.Int("tokens", 64, "max_tokens per request")
	seed := fs.Int64("seed", 1, "arrival seed")
	if err := fs.Parse(args); err != nil {
		return err
	}
	var rows strings.Builder
	for i := range 256 {
		fmt.Fprintf(&rows, "{\"id\":\"p%03d\",\"prompt\":\"load check prompt %d\",\"max_tokens\":%d}\n", i, i, *tokens)
	}
	w, err := schedule.ParseWorkload("loadcheck.jsonl", []byte(rows.String()))
	if err != nil {
		return err
	}
	arrival, err := schedule.NewArrival(schedule.ArrivalSpec{Process: schedule.ProcessPoisson, RateRPS: *rate, Seed: *seed})
	if err != nil {
		return err
	}
	dir, err := os.MkdirTemp("", "loadcheck-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	var before, after syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &before)
	res, err := servebench.Run(context.Background(), servebench.RunConfig{
		Workload: w, Arrival: arrival, Duration: *duration, OutputDir: dir,
		Client: &openai.Client{BaseURL: *url, Model: "loadcheck", Endpoint: record.EndpointCompletions,
			TotalTimeout: 30 * time.Second, IdleTimeout: 10 * time.Second},
	})
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &after)
	if err != nil {
		return err
	}
	server, err := serverTTFT(*url)
	if err != nil {
		return err
	}
	var added []float64
	records := 0
	for o, err := range res.Outcomes() {
		if err != nil {
			return err
		}
		records++
		st, ok := server[res.Schedule.RunID+"/"+o.ID+"/1"]
		if !ok || o.FirstContentMS == nil || o.SentMS == nil {
			continue
		}
		added = append(added, (*o.FirstContentMS-*o.SentMS)-st)
	}
	slices.Sort(added)
	rep := res.Report
	cpu := (tvMS(after.Utime) + tvMS(after.Stime) - tvMS(before.Utime) - tvMS(before.Stime)) / float64(max(records, 1))
	delivered := 0.0
	if rep.Generator != nil && rep.Generator.DeliveredRPS != nil && rep.Generator.IdealRPS != nil {
		delivered = *rep.Generator.DeliveredRPS / *rep.Generator.IdealRPS
	}
	lagP99 := distP99(rep.Percentiles[record.MetricScheduleLag])
	addedP50, _ := stats.Percentile(added, 50, stats.NearestRank)
	addedP99, _ := stats.Percentile(added, 99, stats.NearestRank)
	t := targetsFor(*rate)
	fmt.Printf("rate %.0f req/s Poisson, %v window, %d-token streams: %d offered, %d successful\n",
		*rate, *duration, *tokens, rep.Offered, rep.ProtocolSuccesses)
	ok := true
	check := func(name string, value, limit float64, atLeast bool, unit string) {
		pass := value <= limit
		if atLeast {
			pass = value >= limit
		}
		ok = ok && pass
		verdict := "ok"
		if !pass {
			verdict = "MISSED"
		}
		cmp := "<="
		if atLeast {
			cmp = ">="
		}
		fmt.Printf("  %-34s %10.3f %-6s (target %s %g) %s\n", name, value, unit, cmp, limit, verdict)
	}
	check("delivered / ideal rate", delivered, t.minDelivered, true, "")
	check("schedule lag p99", lagP99, t.maxLagP99MS, false, "ms")
	fmt.Printf("  %-34s %10.3f %-6s (n=%d)\n", "client-added TTFT p50", addedP50, "ms", len(added))
	check("client-added TTFT p99", addedP99, t.maxAddedP99MS, false, "ms")
	check("client CPU per request", cpu, t.maxCPUPerReqMS, false, "ms")
	fmt.Printf("  %-34s %10.1f MiB\n", "client peak resident set", float64(after.Maxrss)/1024)
	if rep.Generator != nil && rep.Generator.SchedulerLatencyP99MS != nil {
		fmt.Printf("  %-34s %10.3f ms\n", "Go scheduler latency p99", *rep.Generator.SchedulerLatencyP99MS)
	}
	if !ok || rep.ProtocolSuccesses != rep.Offered {
		return fmt.Errorf("rate %.0f: a target was missed or a request failed", *rate)
	}
	return nil
}

// serverTTFT fetches the server's own first-token times.
func serverTTFT(url string) (map[string]float64, error) {
	resp, err := http.Get(url + "/stats")
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	var m map[string]float64
	return m, json.NewDecoder(resp.Body).Decode(&m)
}

func tvMS(tv syscall.Timeval) float64 { return float64(tv.Sec)*1000 + float64(tv.Usec)/1000 }

func distP99(d report.Distribution) float64 {
	if d.P99 == nil {
		return math.Inf(1) // no population: the target cannot be met
	}
	return *d.P99
}
