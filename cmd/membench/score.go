package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/pprof"
	"syscall"
	"time"

	"github.com/servebench/servebench/servebench"
)

// scoreCheck re-scores a run directory as `servebench score --run` does,
// then prints wall time, CPU time, peak RSS and the time to merely read
// outcomes.jsonl, against the targets.
func scoreCheck(args []string) error {
	fs := flag.NewFlagSet("membench score", flag.ContinueOnError)
	dir := fs.String("dir", "", "run directory (required)")
	maxRSS := fs.Int("max-rss-mb", 150, "target peak RSS in MB")
	maxWall := fs.Duration("max-wall", 10*time.Second, "target wall time")
	profile := fs.String("cpuprofile", "", "write a CPU profile of the scoring here")
	requests := fs.String("requests", "", "write the per-request entries to this file (default: drop them)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *dir == "" {
		return fmt.Errorf("score: -dir is required")
	}
	readStart := time.Now()
	nbytes, err := readAll(filepath.Join(*dir, servebench.OutcomesFile))
	if err != nil {
		return err
	}
	readWall := time.Since(readStart)

	if *profile != "" {
		pf, err := os.Create(*profile)
		if err != nil {
			return err
		}
		if err := pprof.StartCPUProfile(pf); err != nil {
			return err
		}
		defer pprof.StopCPUProfile()
	}
	var before syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &before)
	start := time.Now()
	var out io.Writer
	if *requests != "" {
		f, err := os.Create(*requests)
		if err != nil {
			return err
		}
		defer f.Close()
		out = f
	}
	rep, err := servebench.ScoreRunDirTo(*dir, servebench.ScoreOptions{}, out)
	if err != nil {
		return err
	}
	wall := time.Since(start)
	var after syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &after)
	cpu := tv(after.Utime) + tv(after.Stime) - tv(before.Utime) - tv(before.Stime)
	peakMB := float64(after.Maxrss) / 1024 // Linux reports KiB
	fmt.Printf("records %d, outcomes.jsonl %.0f MB read in %.2f s\n", rep.Offered, float64(nbytes)/1e6, readWall.Seconds())
	fmt.Printf("score: wall %.2f s, cpu %.2f s (user+sys), peak RSS %.1f MB\n", wall.Seconds(), cpu.Seconds(), peakMB)
	fmt.Printf("ttft p99 %v ms, chunk gap p99 %v ms (n %d)\n", deref(rep.Percentiles[servebench.MetricTTFT].P99),
		deref(rep.Percentiles[servebench.MetricChunkGap].P99), rep.Percentiles[servebench.MetricChunkGap].N)
	ok := peakMB < float64(*maxRSS) && wall < *maxWall
	fmt.Printf("targets: peak RSS < %d MB, wall < %v: %v\n", *maxRSS, *maxWall, verdict(ok))
	if !ok {
		os.Exit(1)
	}
	return nil
}

func readAll(path string) (int64, error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	return io.CopyBuffer(io.Discard, f, make([]byte, 1<<20))
}

func tv(t syscall.Timeval) time.Duration {
	return time.Duration(t.Sec)*time.Second + time.Duration(t.Usec)*time.Microsecond
}

func deref(p *float64) any {
	if p == nil {
		return nil
	}
	return *p
}

func verdict(ok bool) string {
	if ok {
		return "met"
	}
	return "MISSED"
}
