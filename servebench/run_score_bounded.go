package servebench

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/servebench/servebench/internal/safefile"
	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/servebench/report"
	"github.com/servebench/servebench/servebench/schedule"
	"github.com/servebench/servebench/servebench/score"
)

// boundedScoring says whether a run keeps no per-request state: asked for,
// open loop and unsharded (a closed loop's window and a shard's share are
// fixed from the records in memory).
func (cfg *RunConfig) boundedScoring(s *schedule.Schedule) bool {
	return cfg.BoundedMemory && s.Mode == schedule.ModeOpen && s.Shard == nil
}

// scoreRunBounded scores a BoundedMemory run from its files: the report
// streams outcomes.jsonl and writes the request entries to requests.jsonl.
func scoreRunBounded(cfg RunConfig, s *schedule.Schedule, res *RunResult, gen *report.GeneratorReport, wallStart time.Time) (*report.Report, error) {
	opts := scoreOptionsFor(cfg, s, nil)
	// The scorer of a run directory takes defaults from its report.json:
	// one left from an earlier run in the same directory must not count.
	if err := os.Remove(filepath.Join(res.Dir, record.ReportFile)); err != nil && !errors.Is(err, os.ErrNotExist) {
		return nil, err
	}
	f, err := safefile.Create(filepath.Join(res.Dir, record.RequestsFile))
	if err != nil {
		return nil, err
	}
	defer f.Close()
	rep, sent, err := score.RunDirCounting(res.Dir, opts, f)
	if errors.Is(err, schedule.ErrStreamDeclined) {
		// An unusual record: score in memory after all, with the strict
		// reader's errors.
		outcomes, rerr := record.ReadOutcomes(filepath.Join(res.Dir, record.OutcomesFile))
		if rerr != nil {
			return nil, rerr
		}
		if _, err = f.Seek(0, 0); err != nil {
			return nil, err
		}
		if err = f.Truncate(0); err != nil {
			return nil, err
		}
		rep, err = score.RunDirTo(res.Dir, opts, f)
		sent = sentBefore(outcomes, 0)
		if rep != nil {
			sent = sentBefore(outcomes, rep.WindowMS[1])
		}
	}
	if err != nil {
		return nil, err
	}
	if err := f.Close(); err != nil {
		return nil, err
	}
	rep.Inputs.WorkloadSHA256 = cfg.Workload.SHA256
	rep.RequestsFile = record.RequestsFile
	completeGenerator(gen, rep, s, sent)
	rep.Generator = gen
	rep.Experiment = experimentRecord(cfg, s, wallStart)
	rep.Experiment.Notes = append(rep.Experiment.Notes, fmt.Sprintf(
		"bounded memory: request entries are in %s, and the prompt-token and output-length audits were skipped", record.RequestsFile))
	return rep, nil
}
