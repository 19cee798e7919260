package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/servebench/servebench/servebench"
	"github.com/servebench/servebench/servebench/openai"
	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/servebench/schedule"
)

// phaseLoad is the load one phase of a paired run offers.
type phaseLoad struct {
	url      string
	arrival  string // constant or poisson
	rate     float64
	duration time.Duration
	tokens   int
	seed     uint64
}

// flags are the child's command-line form of the load.
func (l phaseLoad) flags() []string {
	return []string{"-url", l.url, "-arrival", l.arrival, "-rate", strconv.FormatFloat(l.rate, 'g', -1, 64),
		"-duration", l.duration.String(), "-tokens", strconv.Itoa(l.tokens), "-seed", strconv.FormatUint(l.seed, 10)}
}

// pairClient runs one client for one phase of a paired run, in a process
// of its own so that its peak resident set is its own, and prints its
// phaseResult as one JSON line.
func pairClient(args []string) error {
	fs := flag.NewFlagSet("loadcheck pair-client", flag.ContinueOnError)
	which := fs.String("client", "", "lean or servebench")
	var l phaseLoad
	fs.StringVar(&l.url, "url", "", "server root URL")
	fs.StringVar(&l.arrival, "arrival", "poisson", "constant or poisson")
	fs.Float64Var(&l.rate, "rate", 500, "offered rate (requests/s)")
	fs.DurationVar(&l.duration, "duration", 10*time.Second, "arrival window")
	fs.IntVar(&l.tokens, "tokens", 40, "tokens per stream")
	fs.Uint64Var(&l.seed, "seed", 1, "arrival seed")
	profile := fs.String("profile", "", "write CPU, block, mutex and allocation profiles of the phase to files with this path prefix")
	trace := fs.Bool("trace", false, "with -profile, also write the phase's execution trace (runtime/trace)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *profile != "" {
		stop, err := startProfiles(*profile, *trace)
		if err != nil {
			return err
		}
		defer stop()
	}
	var res *phaseResult
	var err error
	switch *which {
	case "lean":
		res, err = runLeanPhase(l)
	case "servebench":
		res, err = runServebenchPhase(l)
	default:
		return fmt.Errorf("-client: want lean or servebench, got %q", *which)
	}
	if err != nil {
		return err
	}
	res.PeakRSSMB = peakRSSMB()
	return json.NewEncoder(os.Stdout).Encode(res)
}

// runLeanPhase runs the lean reference client.
func runLeanPhase(l phaseLoad) (*phaseResult, error) {
	arrivals, err := arrivalOffsets(l.arrival, l.rate, l.duration, l.seed)
	if err != nil {
		return nil, err
	}
	prefix := "lean-" + strconv.FormatInt(time.Now().UnixNano(), 36) + "/"
	c := newLeanClient(l.url, prefix, l.tokens)
	ctx, cancel := context.WithTimeout(context.Background(), l.duration+2*time.Minute)
	defer cancel()
	var before, after syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &before)
	reqs := c.run(ctx, arrivals)
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &after)
	server, err := takeServerTTFT(l.url, prefix)
	if err != nil {
		return nil, err
	}
	timings := make([]requestTiming, len(reqs))
	for i, q := range reqs {
		timings[i] = requestTiming{id: q.id, scheduled: q.scheduledMS, sent: q.sentMS, first: q.firstMS,
			hasSent: q.sentMS > 0, hasFirst: q.firstMS > 0, succeeded: q.err == nil && q.done && q.events == l.tokens}
	}
	res := &phaseResult{Client: "lean", PeakInFlight: int(c.peak.Load())}
	res.fill(timings, server)
	res.CPUPerRequestMS = (cpuMS(&after) - cpuMS(&before)) / float64(max(len(reqs), 1))
	return res, nil
}

// finishedUsage is an Observer that takes the process's resource usage
// when the last request has ended, before the run scores it.
type finishedUsage struct {
	once  sync.Once
	usage syscall.Rusage
}

func (*finishedUsage) Started(int)           {}
func (*finishedUsage) Ended(*record.Outcome) {}
func (f *finishedUsage) Finished() {
	f.once.Do(func() { _ = syscall.Getrusage(syscall.RUSAGE_SELF, &f.usage) })
}

// runServebenchPhase runs servebench's own run path: servebench.Run with
// the openai client, its outcome file, scoring and reports, as a program
// using the library would.
func runServebenchPhase(l phaseLoad) (*phaseResult, error) {
	w, err := schedule.ParseWorkload("loadcheck.jsonl", workloadRows(l.tokens))
	if err != nil {
		return nil, err
	}
	process := schedule.ProcessPoisson
	if l.arrival == "constant" {
		process = schedule.ProcessConstant
	}
	arrival, err := schedule.NewArrival(schedule.ArrivalSpec{Process: process, RateRPS: l.rate, Seed: int64(l.seed)})
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "loadcheck-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	obs := &finishedUsage{}
	ctx, cancel := context.WithTimeout(context.Background(), l.duration+2*time.Minute)
	defer cancel()
	var before, after syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &before)
	run, err := servebench.Run(ctx, servebench.RunConfig{
		Workload: w, Arrival: arrival, Duration: l.duration, OutputDir: dir, Observer: obs,
		Client: &openai.Client{BaseURL: l.url, Model: "loadcheck", Endpoint: record.EndpointCompletions,
			TotalTimeout: time.Minute, IdleTimeout: 10 * time.Second},
	})
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &after)
	if err != nil {
		return nil, err
	}
	prefix := run.Schedule.RunID + "/"
	server, err := takeServerTTFT(l.url, prefix)
	if err != nil {
		return nil, err
	}
	var timings []requestTiming
	for o, err := range run.Outcomes() {
		if err != nil {
			return nil, err
		}
		t := requestTiming{id: prefix + o.ID + "/1", scheduled: o.ScheduledMS, succeeded: o.Status == record.StatusSuccess}
		if o.SentMS != nil {
			t.sent, t.hasSent = *o.SentMS, true
		}
		if o.FirstContentMS != nil {
			t.first, t.hasFirst = *o.FirstContentMS, true
		}
		timings = append(timings, t)
	}
	res := &phaseResult{Client: "servebench"}
	res.fill(timings, server)
	n := float64(max(len(timings), 1))
	res.CPUPerRequestMS = (cpuMS(&obs.usage) - cpuMS(&before)) / n
	res.CPUWithScoringPerRequestMS = (cpuMS(&after) - cpuMS(&before)) / n
	res.PeakRSSSendingMB = float64(obs.usage.Maxrss) * 1024 / 1e6
	if g := run.Report.Generator; g != nil {
		res.PeakInFlight = g.PeakOutstanding
		if g.SchedulerLatencyP99MS != nil {
			res.Notes = append(res.Notes, fmt.Sprintf("Go scheduler latency p99 %.2f ms", *g.SchedulerLatencyP99MS))
		}
	}
	if !run.Report.Valid {
		res.Notes = append(res.Notes, "servebench: not valid load: "+strings.Join(run.Report.InvalidReasons, "; "))
	}
	return res, nil
}
