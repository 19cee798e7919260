package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"time"

	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/servebench/report"
)

// scoreCheck runs `servebench score --run` on a run directory, in a
// child process so that its figures are the command's own, then prints
// its wall time, CPU time and peak RSS, and the time to merely read
// outcomes.jsonl, against the targets.
func scoreCheck(args []string) error {
	fs := flag.NewFlagSet("membench score", flag.ContinueOnError)
	dir := fs.String("dir", "", "run directory (required)")
	bin := fs.String("servebench", "servebench", "path of the cmd/servebench binary")
	maxRSS := fs.Int("max-rss-mb", 150, "target peak RSS in MB")
	maxWall := fs.Duration("max-wall", 10*time.Second, "target wall time")
	requests := fs.String("requests", "", "pass --requests FILE to the command ('none': nowhere); empty passes nothing, the default")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *dir == "" {
		return fmt.Errorf("score: -dir is required")
	}
	readStart := time.Now()
	nbytes, err := readAll(filepath.Join(*dir, record.OutcomesFile))
	if err != nil {
		return err
	}
	readWall := time.Since(readStart)

	cmdArgs := []string{"score", "--run", *dir, "--format", "json"}
	if *requests != "" {
		cmdArgs = append(cmdArgs, "--requests", *requests)
	}
	cmd := exec.Command(*bin, cmdArgs...)
	cmd.Stderr = os.Stderr
	start := time.Now()
	out, err := cmd.Output()
	wall := time.Since(start)
	// score exits 1 for a report that misses its objectives; only a
	// report that is not there is a failure here.
	var rep report.Report
	if jerr := json.Unmarshal(out, &rep); jerr != nil {
		return fmt.Errorf("%s score --run %s: %v (%v)", *bin, *dir, err, jerr)
	}
	ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	if !ok {
		return fmt.Errorf("no resource usage for the child process")
	}
	cpu := tv(ru.Utime) + tv(ru.Stime)
	peakMB := float64(ru.Maxrss) / 1024 // Linux reports KiB
	fmt.Printf("records %d, outcomes.jsonl %.0f MB read in %.2f s\n", rep.Offered, float64(nbytes)/1e6, readWall.Seconds())
	fmt.Printf("servebench score --run: wall %.2f s, cpu %.2f s (user+sys), peak RSS %.1f MB\n", wall.Seconds(), cpu.Seconds(), peakMB)
	fmt.Printf("ttft p99 %v ms, chunk gap p99 %v ms (n %d)\n", deref(rep.Percentiles[record.MetricTTFT].P99),
		deref(rep.Percentiles[record.MetricChunkGap].P99), rep.Percentiles[record.MetricChunkGap].N)
	ok = peakMB < float64(*maxRSS) && wall < *maxWall
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
