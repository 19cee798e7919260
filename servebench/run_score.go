package servebench

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"slices"
	"strconv"
	"time"

	"github.com/servebench/servebench/internal/numfmt"
	"github.com/servebench/servebench/internal/redact"
	"github.com/servebench/servebench/internal/safefile"
	"github.com/servebench/servebench/servebench/openai"
	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/servebench/report"
	"github.com/servebench/servebench/servebench/schedule"
	"github.com/servebench/servebench/servebench/score"
)

// scoreRun scores a finished run from its files in a streamed pass, in
// memory that does not grow with its length: the request entries go to
// requests.jsonl, and the report points to them. It completes the report
// with what only the runner knows: the generator's self-observation, the
// workload's hash and the experiment record. lastTerminalMS is the latest
// terminal time written, where a closed loop's window closes; sentInWindow
// counts the requests sent before the window's end, for the delivered rate.
func scoreRun(cfg RunConfig, s *schedule.Schedule, res *RunResult, gen *report.GeneratorReport, lastTerminalMS float64, sentInWindow int, wallStart time.Time) (*report.Report, error) {
	opts := scoreOptionsFor(cfg, s, lastTerminalMS)
	// The scorer of a run directory takes defaults from its report.json:
	// one left from an earlier run in the same directory must not count.
	if err := os.Remove(filepath.Join(res.Dir, record.ReportFile)); err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, err
	}
	rep, err := scoreRunDir(res.Dir, opts)
	if err != nil {
		return nil, err
	}
	rep.Inputs.WorkloadSHA256 = cfg.Workload.SHA256
	completeGenerator(gen, rep, s, sentInWindow)
	rep.Generator = gen
	rep.Experiment = experimentRecord(cfg, s, wallStart)
	if rep.OutputLengths != nil && rep.OutputLengths.NotEnforceable > 0 {
		rep.Experiment.Notes = append(rep.Experiment.Notes, fmt.Sprintf(
			"%d requests forced their output length (ignore_eos) but the engine cannot be asked to honour it: their lengths are natural, not forced",
			rep.OutputLengths.NotEnforceable))
	}
	return rep, nil
}

// scoreRunDir scores a run directory in a streamed pass (score.RunDirTo),
// writing the request entries to its requests.jsonl.
func scoreRunDir(dir string, opts score.Options) (*report.Report, error) {
	f, err := safefile.Create(filepath.Join(dir, record.RequestsFile))
	if err != nil {
		return nil, err
	}
	defer f.Close()
	rep, err := score.RunDirTo(dir, opts, f)
	if err != nil {
		return nil, err
	}
	if err := f.Close(); err != nil {
		return nil, err
	}
	rep.RequestsFile = record.RequestsFile
	rep.SetRunDir(dir)
	return rep, nil
}

// snapshotRunDir scores a run in progress: the first written bytes of its
// outcomes.jsonl (the complete records) against its schedule, in a
// scratch directory of its own, so that a record being written is never
// read half-way.
func snapshotRunDir(dir string, written int64, opts score.Options) (*report.Report, error) {
	scratch, err := os.MkdirTemp("", "servebench-snapshot-")
	if err != nil {
		return nil, fmt.Errorf("snapshot: %w", err)
	}
	defer os.RemoveAll(scratch)
	sched, err := filepath.Abs(filepath.Join(dir, record.ScheduleFile))
	if err != nil {
		return nil, fmt.Errorf("snapshot: %w", err)
	}
	if err := os.Symlink(sched, filepath.Join(scratch, record.ScheduleFile)); err != nil {
		return nil, fmt.Errorf("snapshot: %w", err)
	}
	if err := copyPrefix(filepath.Join(dir, record.OutcomesFile), filepath.Join(scratch, record.OutcomesFile), written); err != nil {
		return nil, fmt.Errorf("snapshot: %w", err)
	}
	rep, err := scoreRunDir(scratch, opts)
	if err != nil {
		return nil, fmt.Errorf("snapshot: %w", err)
	}
	missing, err := rep.RequestsWithoutRecord()
	if err != nil {
		return nil, fmt.Errorf("snapshot: %w", err)
	}
	rep.Pending = len(missing)
	rep.RequestsFile = "" // the scratch directory's file is gone
	rep.SetRunDir("")
	return rep, nil
}

// copyPrefix copies the first n bytes of src to a new file dst (fewer when
// src is shorter, as when nothing was written yet).
func copyPrefix(src, dst string, n int64) error {
	out, err := os.Create(dst)
	if err != nil {
		return err
	}
	in, err := os.Open(src)
	if errors.Is(err, os.ErrNotExist) {
		return out.Close()
	}
	if err != nil {
		out.Close()
		return err
	}
	defer in.Close()
	if _, err := io.CopyN(out, in, n); err != nil && !errors.Is(err, io.EOF) {
		out.Close()
		return err
	}
	return out.Close()
}

// markOutcomeWriteFailure makes the report of a run whose outcome file
// could not be written not valid, saying why. The requests without a
// record already count as not_sent with their own reason.
func markOutcomeWriteFailure(rep *report.Report, err error) {
	rep.Valid = false
	rep.InvalidReasons = append(rep.InvalidReasons,
		"the outcome file could not be written, so the run was stopped at once: "+err.Error())
}

// scoreOptionsFor completes the run's score options with what the schedule
// declares: its lag tolerance and, for a closed loop, a window that closes
// at the users' last terminal outcome, or at the deadline of a closed loop
// bounded by time; for sessions replayed without a duration, a window that
// closes no earlier than the last terminal outcome, so that every round of
// every session is in the cohort.
func scoreOptionsFor(cfg RunConfig, s *schedule.Schedule, lastTerminalMS float64) score.Options {
	opts := cfg.Score
	opts.Percentiles = append(slices.Clone(opts.Percentiles), artifactLevels(cfg.Artifacts)...)
	if opts.Endpoint == "" && cfg.Sender == nil && cfg.Client != nil {
		opts.Endpoint = cfg.Client.ResolvedEndpoint()
	}
	if opts.LagToleranceMS == nil {
		opts.LagToleranceMS = new(s.ScheduleLagToleranceMS)
	}
	if s.Mode == schedule.ModeClosed && opts.WindowMS == nil {
		opts.WindowMS = &[2]float64{0, lastTerminalMS + 0.001}
		if s.WindowMS[1] > 0 {
			opts.WindowMS = &[2]float64{0, s.WindowMS[1]}
		}
	}
	if s.WindowCoversSessions && opts.WindowMS == nil {
		opts.WindowMS = &[2]float64{0, max(s.WindowMS[1], lastTerminalMS+0.001)}
	}
	return opts
}

// completeGenerator adds the delivered rate and the saturation verdict. The
// ideal rate is the realized schedule's own (scheduled arrivals per window,
// so a Poisson draw's luck is not charged to the generator); the delivered
// rate counts only the requests actually sent inside the window, so a
// generator that falls behind and spills its sends past the window shows
// as a shortfall.
func completeGenerator(g *report.GeneratorReport, rep *report.Report, s *schedule.Schedule, inWindow int) {
	window := (rep.WindowMS[1] - rep.WindowMS[0]) / 1000
	if window > 0 && s.Mode == schedule.ModeOpen {
		g.IdealRPS = new(float64(g.Scheduled) / window)
		g.DeliveredRPS = new(float64(inWindow) / window)
	}
	if rep.LateCount > 0 {
		g.Saturated = true
		g.Notes = append(g.Notes, strconv.Itoa(rep.LateCount)+" requests were sent later than the lag tolerance: the load was not delivered as scheduled")
	}
	if g.SchedulerLatencyP99MS != nil && *g.SchedulerLatencyP99MS > s.ScheduleLagToleranceMS/4 {
		g.Saturated = true
		g.Notes = append(g.Notes, fmt.Sprintf("the Go scheduler's p99 latency was %.2f ms: the client process was short of CPU", *g.SchedulerLatencyP99MS))
	}
}

// experimentRecord is the compact record that makes the run reproducible.
func experimentRecord(cfg RunConfig, s *schedule.Schedule, wallStart time.Time) *report.Experiment {
	host, _ := os.Hostname()
	x := &report.Experiment{
		RunID:         s.RunID,
		StartTime:     wallStart.UTC().Format(time.RFC3339Nano),
		Arrival:       s.Arrival,
		Engine:        cfg.Engine,
		Workload:      s.Workload,
		WarmupCount:   cfg.Warmup,
		ClientVersion: clientVersion(),
		GoVersion:     runtime.Version(),
		Host:          host,
		Notes:         append([]string(nil), s.Notes...),
		Labels:        cfg.Labels,
	}
	if c := cfg.Client; c != nil {
		x.Endpoint, x.BaseURL, x.Model, x.Timeouts = c.ResolvedEndpoint(), redact.URL(c.BaseURL), c.Model, clientTimeouts(c)
	}
	if cfg.Warmup > 0 {
		x.Notes = append(x.Notes, fmt.Sprintf("warmup: %s from the workload's first rows, excluded from the cohort; their prefixes start warm", numfmt.Count(cfg.Warmup, "request", "requests")))
	}
	return x
}

// clientVersion is servebench's module version, "devel" in a work tree.
func clientVersion() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "unknown"
	}
	for _, dep := range info.Deps {
		if dep.Path == "github.com/servebench/servebench" {
			return dep.Version
		}
	}
	if v := info.Main.Version; info.Main.Path == "github.com/servebench/servebench" && v != "" {
		return v
	}
	return "devel"
}

// writeJSONFile writes v as indented JSON, whole or not at all.
func writeJSONFile(path string, v any) error {
	data, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	return safefile.WriteWhole(path, append(data, '\n'))
}

// clientTimeouts reports the deadlines the client sends each request
// with, in milliseconds (zero: none).
func clientTimeouts(c *openai.Client) report.Timeouts {
	firstToken, idle, total := c.Deadlines()
	return report.Timeouts{
		FirstTokenMS: record.Millis(firstToken),
		IdleMS:       record.Millis(idle),
		TotalMS:      record.Millis(total),
	}
}
