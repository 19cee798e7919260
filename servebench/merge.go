package servebench

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/servebench/servebench/internal/safefile"
	"github.com/servebench/servebench/servebench/internal/scorer"
	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/servebench/report"
	"github.com/servebench/servebench/servebench/report/render"
	"github.com/servebench/servebench/servebench/schedule"
	"github.com/servebench/servebench/servebench/score"
)

// MergeShards joins the run directories of a sharded run's shards into one
// run directory, out, scored as one run.
//
// The shards must come from one run: the same full schedule (by hash, so the
// same workload, arrival process, seed and run ID) and the same shard count.
// Their records must partition the schedule: a record whose ID belongs to
// another shard's share, and an ID recorded twice, are errors. The share of a
// shard whose directory is not given is recorded as not_sent, so the merged
// run accounts for every scheduled request and is not valid.
//
// out receives the full schedule.json (whose hash is every shard's
// full_schedule_sha256), outcomes.jsonl (every shard's records, on each
// shard's own clock from its own start, which the common start instant
// aligned), report.json and report.html. Options left at their zero value
// come from the first shard's report. The report's generator section lists
// every shard's start offset and schedule lag, and the start skew.
func MergeShards(dirs []string, out string, opts score.Options) (*report.Report, error) {
	if len(dirs) == 0 {
		return nil, errors.New("merge: no shard directories")
	}
	shards := make([]*shardDir, 0, len(dirs))
	for _, d := range dirs {
		sd, err := readShardDir(d)
		if err != nil {
			return nil, err
		}
		shards = append(shards, sd)
	}
	full, err := checkShardsAgree(shards)
	if err != nil {
		return nil, err
	}
	missing, err := partitionRecords(full, shards)
	if err != nil {
		return nil, err
	}
	if err := writeMergedRun(out, full, shards, missing); err != nil {
		return nil, err
	}
	fillMergeOptions(&opts, shards)
	rep, err := score.RunDir(out, opts)
	if err != nil {
		return nil, fmt.Errorf("merge: score: %w", err)
	}
	rep.Inputs.WorkloadSHA256 = full.WorkloadSHA256
	rep.Generator = mergedGenerator(full, shards, missing, rep)
	rep.Experiment = mergedExperiment(shards, missing)
	for _, sd := range shards {
		if sd.torn != nil {
			scorer.MarkTornLine(rep, filepath.Join(sd.dir, record.OutcomesFile), sd.torn)
		}
	}
	if err := writeJSONFile(filepath.Join(out, record.ReportFile), rep); err != nil {
		return nil, fmt.Errorf("merge: %w", err)
	}
	if err := render.HTMLFile(filepath.Join(out, record.ReportHTMLFile), rep); err != nil {
		return nil, fmt.Errorf("merge: %w", err)
	}
	if err := render.TextFile(filepath.Join(out, record.ReportTextFile), rep); err != nil {
		return nil, fmt.Errorf("merge: %w", err)
	}
	return rep, nil
}

// shardDir is one shard's run directory as read for a merge.
type shardDir struct {
	dir      string
	sched    *schedule.Schedule
	report   *report.Report // nil when the shard left no report.json
	lines    [][]byte
	outcomes []recordKey
	torn     *scorer.TornLine // a last line cut off mid-write, left out
}

// recordKey is the part of an outcome record a merge reads: which request
// and attempt it records. The line itself is
// copied as it is; the merged run's scoring reads it in full.
type recordKey struct {
	ID      string `json:"id"`
	Attempt int    `json:"attempt"`
}

// readShardDir reads a shard's schedule, outcome records and report.
func readShardDir(dir string) (*shardDir, error) {
	sched, _, err := schedule.Read(filepath.Join(dir, record.ScheduleFile))
	if err != nil {
		return nil, fmt.Errorf("merge: %w", err)
	}
	if sched.Shard == nil {
		return nil, fmt.Errorf("merge: %s: not a shard's run directory (schedule.json has no shard section; run with --shard)", dir)
	}
	sd := &shardDir{dir: dir, sched: sched}
	if sd.lines, sd.outcomes, sd.torn, err = readOutcomeLines(filepath.Join(dir, record.OutcomesFile)); err != nil {
		return nil, err
	}
	sd.report, err = report.ReadFile(filepath.Join(dir, record.ReportFile))
	if errors.Is(err, fs.ErrNotExist) {
		// A shard that ended before its report was written has none.
		sd.report, err = nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("merge: %w", err)
	}
	return sd, nil
}

// readOutcomeLines reads an outcomes file's lines and decodes each one. A
// shard that was never started (no file) has no records. A last line cut off
// mid-write (no newline) is left out and returned as torn: its request
// counts as unrecorded, as score --run counts it.
func readOutcomeLines(path string) ([][]byte, []recordKey, *scorer.TornLine, error) {
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil, nil, nil
	}
	if err != nil {
		return nil, nil, nil, fmt.Errorf("merge: %w", err)
	}
	defer f.Close()
	var lines [][]byte
	var outcomes []recordKey
	r := bufio.NewReader(f)
	for n := 1; ; n++ {
		line, err := r.ReadBytes('\n')
		if len(bytes.TrimSpace(line)) > 0 {
			var o recordKey
			decodeErr := json.Unmarshal(line, &o)
			if !bytes.HasSuffix(line, []byte("\n")) && err == io.EOF {
				if decodeErr == nil {
					decodeErr = errors.New("no newline at its end")
				}
				return lines, outcomes, &scorer.TornLine{Number: n, Err: decodeErr}, nil
			}
			if decodeErr != nil {
				return nil, nil, nil, fmt.Errorf("merge: %s:%d: %v", path, n, decodeErr)
			}
			lines, outcomes = append(lines, line), append(outcomes, o)
		}
		if err == io.EOF {
			return lines, outcomes, nil, nil
		}
		if err != nil {
			return nil, nil, nil, fmt.Errorf("merge: %s: %w", path, err)
		}
	}
}

// checkShardsAgree checks that the shards realized one schedule and names
// each shard once; it returns the full schedule.
func checkShardsAgree(shards []*shardDir) (*schedule.Schedule, error) {
	first := shards[0]
	seen := make(map[int]string, len(shards))
	for _, sd := range shards {
		a, b := first.sched, sd.sched
		switch {
		case b.WorkloadSHA256 != a.WorkloadSHA256:
			return nil, fmt.Errorf("merge: %s and %s replayed different workloads (workload_sha256 %.12s… vs %.12s…)", first.dir, sd.dir, a.WorkloadSHA256, b.WorkloadSHA256)
		case b.RunID != a.RunID:
			return nil, fmt.Errorf("merge: %s and %s belong to different runs (run_id %s vs %s)", first.dir, sd.dir, a.RunID, b.RunID)
		case b.Arrival.Seed != a.Arrival.Seed:
			return nil, fmt.Errorf("merge: %s and %s used different seeds (%d vs %d)", first.dir, sd.dir, a.Arrival.Seed, b.Arrival.Seed)
		case b.Shard.Count != a.Shard.Count:
			return nil, fmt.Errorf("merge: %s and %s split the run differently (%d vs %d shards)", first.dir, sd.dir, a.Shard.Count, b.Shard.Count)
		case b.Shard.FullScheduleSHA256 != a.Shard.FullScheduleSHA256:
			return nil, fmt.Errorf("merge: %s and %s realized different schedules (full_schedule_sha256 %.12s… vs %.12s…): shards of one run share the run ID, workload, arrival process, seed and window", first.dir, sd.dir, a.Shard.FullScheduleSHA256, b.Shard.FullScheduleSHA256)
		}
		if other, dup := seen[b.Shard.Index]; dup {
			return nil, fmt.Errorf("merge: shard %s is given twice: %s and %s", b.Shard.Shard, other, sd.dir)
		}
		seen[b.Shard.Index] = sd.dir
	}
	// Every shard's entries are hashed again, not only the first's: a
	// shard whose schedule.json was edited after the run is refused.
	var full *schedule.Schedule
	for _, sd := range shards {
		f := sd.sched.Full()
		sum, err := schedule.FullSHA256(f)
		if err != nil {
			return nil, err
		}
		if sum != sd.sched.Shard.FullScheduleSHA256 {
			return nil, fmt.Errorf("merge: %s: schedule.json was changed after the run (its entries no longer hash to full_schedule_sha256)", sd.dir)
		}
		if full == nil {
			full = f
		}
	}
	slices.SortFunc(shards, func(a, b *shardDir) int { return a.sched.Shard.Index - b.sched.Shard.Index })
	return full, nil
}

// partitionRecords checks that every record belongs to its shard's share
// and that no ID is recorded twice, and returns the indices of the shards
// that are missing.
func partitionRecords(full *schedule.Schedule, shards []*shardDir) ([]int, error) {
	n := shards[0].sched.Shard.Count
	owner := make(map[string]int, len(full.Entries))
	for u, unit := range schedule.Units(full) {
		for _, i := range unit {
			owner[full.Entries[i].ID] = u % n
		}
	}
	type place struct {
		dir  string
		line int
	}
	recorded := make(map[string]place)
	present := make([]bool, n)
	for _, sd := range shards {
		k := sd.sched.Shard.Index
		present[k] = true
		for i := range sd.outcomes {
			o := &sd.outcomes[i]
			at := place{sd.dir, i + 1}
			want, ok := owner[o.ID]
			switch {
			case !ok:
				return nil, fmt.Errorf("merge: %s:%d: id %q is not in the schedule", filepath.Join(sd.dir, record.OutcomesFile), at.line, o.ID)
			case want != k:
				return nil, fmt.Errorf("merge: %s:%d: id %q belongs to shard %d/%d, not to this shard %s", filepath.Join(sd.dir, record.OutcomesFile), at.line, o.ID, want, n, sd.sched.Shard.Shard)
			}
			key := fmt.Sprintf("%s\x00%d", o.ID, o.Attempt)
			if prev, dup := recorded[key]; dup {
				return nil, fmt.Errorf("merge: id %q attempt %d is recorded twice: %s:%d and %s:%d",
					o.ID, o.Attempt, filepath.Join(prev.dir, record.OutcomesFile), prev.line, filepath.Join(sd.dir, record.OutcomesFile), at.line)
			}
			recorded[key] = at
		}
	}
	var missing []int
	for k, ok := range present {
		if !ok {
			missing = append(missing, k)
		}
	}
	return missing, nil
}

// missingShardRecords records the share of each missing shard as not_sent.
func missingShardRecords(full *schedule.Schedule, n int, missing []int) []record.Outcome {
	if len(missing) == 0 {
		return nil
	}
	gone := make(map[int]bool, len(missing))
	for _, k := range missing {
		gone[k] = true
	}
	var outs []record.Outcome
	for u, unit := range schedule.Units(full) {
		if !gone[u%n] {
			continue
		}
		for _, i := range unit {
			e := &full.Entries[i]
			outs = append(outs, record.Outcome{
				ID: e.ID, Attempt: 1, Class: e.Class, Adapter: e.Adapter, Status: record.StatusNotSent,
				ScheduledMS: e.ScheduledMS, TerminalMS: e.ScheduledMS,
				Error: fmt.Sprintf("never sent: shard %d/%d's run directory was not merged", u%n, n),
			})
		}
	}
	return outs
}

// writeMergedRun writes the merged run directory's schedule and records.
func writeMergedRun(out string, full *schedule.Schedule, shards []*shardDir, missing []int) error {
	if err := os.MkdirAll(out, 0o755); err != nil {
		return fmt.Errorf("merge: %w", err)
	}
	for _, name := range []string{record.ScheduleFile, record.OutcomesFile, record.ReportFile} {
		if _, err := os.Stat(filepath.Join(out, name)); err == nil {
			return fmt.Errorf("merge: %s already holds a run (%s); choose an empty directory", out, name)
		}
	}
	if _, err := schedule.Write(filepath.Join(out, record.ScheduleFile), full); err != nil {
		return fmt.Errorf("merge: %w", err)
	}
	f, err := safefile.Create(filepath.Join(out, record.OutcomesFile))
	if err != nil {
		return fmt.Errorf("merge: %w", err)
	}
	w := bufio.NewWriter(f)
	for _, sd := range shards {
		for _, line := range sd.lines {
			_, _ = w.Write(line)
		}
	}
	enc := json.NewEncoder(w)
	for _, o := range missingShardRecords(full, shards[0].sched.Shard.Count, missing) {
		if err := enc.Encode(o); err != nil {
			f.Close()
			return fmt.Errorf("merge: %w", err)
		}
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return fmt.Errorf("merge: %w", err)
	}
	return f.Close()
}

// fillMergeOptions takes unset options from the first shard's report.
func fillMergeOptions(opts *score.Options, shards []*shardDir) {
	for _, sd := range shards {
		if sd.report != nil {
			opts.FillFrom(sd.report)
			return
		}
	}
}

// mergedGenerator joins the shards' self-observation: every shard's start
// offset and lag, the start skew, and the delivered rate of the whole run.
func mergedGenerator(full *schedule.Schedule, shards []*shardDir, missing []int, rep *report.Report) *report.GeneratorReport {
	n := shards[0].sched.Shard.Count
	g := &report.GeneratorReport{Mode: full.Mode, Scheduled: len(full.Entries)}
	timings := make([]report.ShardTiming, n)
	for k := range timings {
		timings[k] = report.ShardTiming{Shard: schedule.Shard{Index: k, Count: n}, Missing: true}
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	delivered := 0.0
	for _, sd := range shards {
		k := sd.sched.Shard.Index
		t := report.ShardTiming{Shard: sd.sched.Shard.Shard, Scheduled: len(sd.sched.OwnShare().Entries)}
		if sg := shardGenerator(sd); sg != nil {
			g.Sent += sg.Sent
			if sg.DeliveredRPS != nil {
				delivered += *sg.DeliveredRPS
			}
			g.MaxConcurrency += sg.MaxConcurrency
			g.PeakOutstanding += sg.PeakOutstanding
			g.Saturated = g.Saturated || sg.Saturated
			mergeShardHistory(g, sg, t.String())
			for _, note := range sg.Notes {
				g.Notes = append(g.Notes, "shard "+t.String()+": "+note)
			}
			if sg.SchedulerLatencyP99MS != nil && (g.SchedulerLatencyP99MS == nil || *sg.SchedulerLatencyP99MS > *g.SchedulerLatencyP99MS) {
				g.SchedulerLatencyP99MS = sg.SchedulerLatencyP99MS
			}
			if sg.Shard != nil {
				t = *sg.Shard
			}
		} else {
			g.Notes = append(g.Notes, fmt.Sprintf("shard %s left no report.json: its generator was not observed", t.Shard))
		}
		if t.StartOffsetMS != nil {
			lo, hi = min(lo, *t.StartOffsetMS), max(hi, *t.StartOffsetMS)
		}
		timings[k] = t
	}
	g.Shards = timings
	if hi >= lo {
		g.StartSkewMS = new(hi - lo)
	}
	if len(missing) > 0 {
		names := make([]string, len(missing))
		for i, k := range missing {
			names[i] = schedule.Shard{Index: k, Count: n}.String()
		}
		g.Notes = append(g.Notes, "shards "+strings.Join(names, ", ")+" are missing: their share is recorded as not_sent")
	}
	if window := (rep.WindowMS[1] - rep.WindowMS[0]) / 1000; window > 0 && full.Mode == schedule.ModeOpen {
		// Every shard scores the same window, so the shards' delivered
		// rates add up; a missing shard delivered nothing.
		g.IdealRPS, g.DeliveredRPS = new(float64(g.Scheduled)/window), new(delivered)
	}
	return g
}

// mergeShardHistory adds a shard's history mode and prompt tokens sent
// to the merged generator record; shards that ran different modes are
// noted, and the first one's mode stands.
func mergeShardHistory(g, sg *report.GeneratorReport, shard string) {
	switch {
	case g.History == "":
		g.History = sg.History
	case sg.History != "" && sg.History != g.History:
		g.Notes = append(g.Notes, fmt.Sprintf("shard %s ran %s history, another shard %s", shard, sg.History, g.History))
	}
	if p := sg.PromptTokensSent; p != nil {
		if g.PromptTokensSent == nil {
			g.PromptTokensSent = &report.PromptTokensSent{}
		}
		g.PromptTokensSent.Total += p.Total
		g.PromptTokensSent.Reported += p.Reported
		g.PromptTokensSent.Sent += p.Sent
	}
}

// shardGenerator is a shard's own generator record, nil without a report.
func shardGenerator(sd *shardDir) *report.GeneratorReport {
	if sd.report == nil {
		return nil
	}
	return sd.report.Generator
}

// mergedExperiment is the first shard's experiment record, noting the merge.
func mergedExperiment(shards []*shardDir, missing []int) *report.Experiment {
	var x report.Experiment
	for _, sd := range shards {
		if sd.report != nil && sd.report.Experiment != nil {
			x = *sd.report.Experiment
			x.Notes = append([]string(nil), x.Notes...)
			break
		}
	}
	n := shards[0].sched.Shard.Count
	x.Notes = append(x.Notes, fmt.Sprintf("merged from %d of %d shards; each shard's times are on its own clock from the common start instant", len(shards), n))
	if len(missing) > 0 {
		x.Notes = append(x.Notes, fmt.Sprintf("%d shards missing", len(missing)))
	}
	return &x
}
