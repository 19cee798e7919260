package main

import (
	"bufio"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/servebench/servebench/servebench"
	"github.com/servebench/servebench/servebench/openai"
	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/servebench/report"
	"github.com/servebench/servebench/servebench/schedule"
)

// runResult is what `membench run` prints as its last line.
type runResult struct {
	Requests  int     `json:"requests"`
	PeakRSSKB int64   `json:"peak_rss_kb"`
	WallS     float64 `json:"wall_s"`
	CPUS      float64 `json:"cpu_s"`
	Valid     bool    `json:"valid"`
	Successes int     `json:"successes"`
	// PeakOutstanding is the most requests in flight at once: a run whose
	// engine fell behind holds more, and its memory says so.
	PeakOutstanding int `json:"peak_outstanding"`
	// DispatchPeakRSSKB is the peak RSS when the last request had ended,
	// before scoring: the rest of PeakRSSKB is the scoring pass's.
	DispatchPeakRSSKB int64 `json:"dispatch_peak_rss_kb,omitempty"`
	// Goroutines is the count left once the run returned: a leak per
	// request shows here (-1: not known, for the command).
	Goroutines int `json:"goroutines"`
}

// runOnce runs n 64-token requests at rate against the engine with the
// run's default configuration and prints its own peak RSS as JSON.
func runOnce(args []string) error {
	fs := flag.NewFlagSet("membench run", flag.ContinueOnError)
	n := fs.Int("n", 100_000, "requests")
	rate := fs.Float64("rate", 1000, "offered rate (req/s)")
	tokens := fs.Int("tokens", 64, "output tokens per request")
	url := fs.String("engine", "http://127.0.0.1:8000", "the simulated engine's URL")
	dir := fs.String("dir", "", "run directory (default: a temporary one, removed after)")
	heapProfile := fs.String("heapprofile", "", "write a heap profile here at 80% of the arrival window")
	if err := fs.Parse(args); err != nil {
		return err
	}
	w, err := schedule.ParseWorkload("membench.jsonl", []byte(fmt.Sprintf(
		`{"id":"a","prompt":"write a long status update about the pager rotation","max_tokens":%d,"ignore_eos":true}`+"\n", *tokens)))
	if err != nil {
		return err
	}
	arrival, err := schedule.NewArrival(schedule.ArrivalSpec{Process: "constant", RateRPS: *rate})
	if err != nil {
		return err
	}
	out := *dir
	if out == "" {
		if out, err = os.MkdirTemp("", "membench-run-"); err != nil {
			return err
		}
		defer os.RemoveAll(out)
	}
	if path := *heapProfile; path != "" {
		// A heap profile at 80% of the arrival window, while requests run.
		go func() {
			time.Sleep(time.Duration(0.8 * float64(*n) / *rate * float64(time.Second)))
			if f, err := os.Create(path); err == nil {
				_ = pprof.WriteHeapProfile(f)
				f.Close()
			}
		}()
	}
	start := time.Now()
	phase := &phasePeak{}
	res, err := servebench.Run(context.Background(), servebench.RunConfig{
		Observer: phase,
		Workload: w, Arrival: arrival, Count: *n, OutputDir: out, LagTolerance: time.Second,
		Client: &openai.Client{BaseURL: *url, Model: "simengine-tiny", Endpoint: record.EndpointCompletions,
			TotalTimeout: time.Minute},
	})
	if err != nil {
		return err
	}
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	r := runResult{Requests: res.Report.Offered, PeakRSSKB: ru.Maxrss, WallS: time.Since(start).Seconds(),
		CPUS: (tv(ru.Utime) + tv(ru.Stime)).Seconds(), Valid: res.Report.Valid, Successes: res.Report.ProtocolSuccesses,
		Goroutines: runtime.NumGoroutine(), DispatchPeakRSSKB: phase.kb}
	if g := res.Report.Generator; g != nil {
		r.PeakOutstanding = g.PeakOutstanding
	}
	b, _ := json.Marshal(r)
	fmt.Println(string(b))
	return nil
}

// phasePeak reads the process's peak RSS when the dispatch has finished,
// before the run is scored.
type phasePeak struct{ kb int64 }

func (*phasePeak) Started(int)           {}
func (*phasePeak) Ended(*record.Outcome) {}
func (p *phasePeak) Finished() {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	p.kb = ru.Maxrss
}

// runChild runs `membench run` for n requests in a fresh process and
// reads the result it prints last.
func runChild(self, n string, rate float64, url string) (runResult, error) {
	cmd := exec.Command(self, "run", "-n", n, "-rate", strconv.FormatFloat(rate, 'g', -1, 64), "-engine", url)
	cmd.Stderr = os.Stderr
	outp, err := cmd.Output()
	if err != nil {
		return runResult{}, fmt.Errorf("run -n %s: %w", n, err)
	}
	var last string
	for sc := bufio.NewScanner(strings.NewReader(string(outp))); sc.Scan(); {
		last = sc.Text()
	}
	var r runResult
	if err := json.Unmarshal([]byte(last), &r); err != nil {
		return r, fmt.Errorf("run -n %s printed %q", n, last)
	}
	return r, nil
}

// runCommand runs `servebench run` with default flags for n requests of
// the same workload and reads its peak RSS from the child's resource
// usage.
func runCommand(bin, n string, rate float64, url string) (runResult, error) {
	dir, err := os.MkdirTemp("", "membench-cmd-")
	if err != nil {
		return runResult{}, err
	}
	defer os.RemoveAll(dir)
	workload := filepath.Join(dir, "workload.jsonl")
	if err := os.WriteFile(workload, []byte(`{"id":"a","prompt":"write a long status update about the pager rotation","max_tokens":64,"ignore_eos":true}`+"\n"), 0o644); err != nil {
		return runResult{}, err
	}
	cmd := exec.Command(bin, "run", "--base-url", url, "--model", "simengine-tiny", "--endpoint", "completions",
		"--workload", workload, "--arrival", "constant", "--rate", strconv.FormatFloat(rate, 'g', -1, 64), "--count", n,
		"--schedule-lag-tolerance", "1s", "--timeout", "1m", "--output", filepath.Join(dir, "run"),
		"--format", "json", "--no-progress")
	cmd.Stderr = os.Stderr
	start := time.Now()
	outp, err := cmd.Output()
	wall := time.Since(start)
	var rep report.Report
	if jerr := json.Unmarshal(outp, &rep); jerr != nil {
		return runResult{}, fmt.Errorf("%s run --count %s: %v (%v)", bin, n, err, jerr)
	}
	ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	if !ok {
		return runResult{}, fmt.Errorf("no resource usage for the child process")
	}
	r := runResult{Requests: rep.Offered, PeakRSSKB: ru.Maxrss, WallS: wall.Seconds(), CPUS: (tv(ru.Utime) + tv(ru.Stime)).Seconds(),
		Valid: rep.Valid, Successes: rep.ProtocolSuccesses, Goroutines: -1}
	if g := rep.Generator; g != nil {
		r.PeakOutstanding = g.PeakOutstanding
	}
	return r, nil
}

// runSlope starts the simulated engine (cmd/simengine, built beforehand),
// runs `membench run` at each size in a fresh process, and prints the peak
// RSS slope between the two sizes against the target.
func runSlope(args []string) error {
	fs := flag.NewFlagSet("membench run-slope", flag.ContinueOnError)
	sizes := fs.String("n", "20000,1000000", "two request counts")
	rate := fs.Float64("rate", 1000, "offered rate (req/s)")
	engine := fs.String("simengine", "simengine", "path of the cmd/simengine binary")
	timeScale := fs.Float64("time-scale", 0.01, "the engine's time scale")
	target := fs.Float64("max-bytes-per-request", 50, "target slope")
	command := fs.String("servebench", "", "measure this cmd/servebench binary's `run` instead of servebench.Run in a membench process")
	if err := fs.Parse(args); err != nil {
		return err
	}
	parts := strings.Split(*sizes, ",")
	if len(parts) != 2 {
		return fmt.Errorf("run-slope: -n wants two sizes")
	}
	const addr = "127.0.0.1:18431"
	eng := exec.Command(*engine, "-addr", addr, "-time-scale", strconv.FormatFloat(*timeScale, 'g', -1, 64),
		"-max-num-seqs", "256", "-kv-cache-tokens", "1048576")
	eng.Stderr = os.Stderr
	if err := eng.Start(); err != nil {
		return err
	}
	defer func() { _ = eng.Process.Kill(); _ = eng.Wait() }()
	time.Sleep(time.Second)
	self, err := os.Executable()
	if err != nil {
		return err
	}
	var results []runResult
	for _, p := range parts {
		var r runResult
		if *command != "" {
			r, err = runCommand(*command, p, *rate, "http://"+addr)
		} else {
			r, err = runChild(self, p, *rate, "http://"+addr)
		}
		if err != nil {
			return err
		}
		fmt.Printf("%d requests at %g req/s: peak RSS %.1f MB, wall %.0f s, cpu %.0f s, %d successes, valid %v, peak outstanding %d, goroutines after %d\n",
			r.Requests, *rate, float64(r.PeakRSSKB)/1024, r.WallS, r.CPUS, r.Successes, r.Valid, r.PeakOutstanding, r.Goroutines)
		results = append(results, r)
	}
	a, b := results[0], results[1]
	slope := float64(b.PeakRSSKB-a.PeakRSSKB) * 1024 / float64(b.Requests-a.Requests)
	fmt.Printf("slope %.0f bytes per request (target < %.0f): %s\n", slope, *target, verdict(slope < *target))
	fmt.Printf("extrapolated peak RSS: 1M requests %.0f MB, 10M requests %.0f MB\n",
		(float64(a.PeakRSSKB)*1024+slope*float64(1_000_000-a.Requests))/1e6,
		(float64(a.PeakRSSKB)*1024+slope*float64(10_000_000-a.Requests))/1e6)
	if slope >= *target {
		// An error, not os.Exit: the deferred stop of the engine must run.
		return fmt.Errorf("the slope missed its target")
	}
	return nil
}
