package score

import (
	"bufio"
	"encoding/json"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/servebench/servebench/internal/strictjson"
	"github.com/servebench/servebench/servebench/internal/scorer"
	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/servebench/report"
	"github.com/servebench/servebench/servebench/schedule"
)

// RunDir re-scores a run directory written by the runner (schedule.json
// and outcomes.jsonl) without sending anything, and writes nothing.
//
// Both files are read strictly: unknown, missing or duplicate fields,
// non-finite numbers and malformed lines are errors naming the file, line
// and field (a field is missing when json.Marshal would have written it, so
// a record cut short by a crash is caught). A scheduled request with no
// record counts as not_sent, so an interrupted run can still be scored; the
// report says so and is not valid. A torn last line (cut off mid-write,
// with no newline at its end) is reported with its line number; the
// complete lines before it are scored and its request counts as
// unrecorded.
//
// Options left at their zero value fall back to what the run's report.json
// recorded, when it exists: each SLO objective on its own (a new TTFT
// bound keeps the run's TPOT and E2E bounds), the Wilson confidence and the
// percentile method; so re-scoring with no options reproduces the run's
// own verdict. The experiment and generator records are carried over from
// it as well, since only the run could observe them.
func RunDir(dir string, opts Options) (*report.Report, error) {
	schedPath := filepath.Join(dir, record.ScheduleFile)
	outPath := filepath.Join(dir, record.OutcomesFile)
	schedBytes, err := os.ReadFile(schedPath)
	if err != nil {
		return nil, &record.InputError{File: schedPath, Msg: err.Error()}
	}
	var sched schedule.Schedule
	if err := strictjson.Decode(schedBytes, &sched); err != nil {
		return nil, record.InputErrorFromJSON(schedPath, 0, err)
	}
	if sched.Schema != schedule.Schema {
		return nil, record.InputErrorAt(schedPath, 0, schedBytes, "", "schema", "want %q, got %q", schedule.Schema, sched.Schema)
	}
	outBytes, err := os.ReadFile(outPath)
	if err != nil {
		return nil, &record.InputError{File: outPath, Msg: err.Error()}
	}
	outcomes, lines, torn, err := splitTornTail(outBytes, splitJSONL(outBytes), func(l jsonlLine) (record.Outcome, error) {
		var o record.Outcome
		if err := strictjson.Decode(l.raw, &o); err != nil {
			return o, record.InputErrorFromJSON(outPath, l.number, err)
		}
		return o, nil
	})
	if err != nil {
		return nil, err
	}
	src := outcomeSource{file: outPath, lines: make([]int, len(lines)), data: make([][]byte, len(lines))}
	for i, l := range lines {
		src.lines[i], src.data[i] = l.number, l.raw
	}

	prev, err := report.ReadFile(filepath.Join(dir, record.ReportFile))
	if errors.Is(err, fs.ErrNotExist) {
		// A run directory scored before its report was written has none.
		prev, err = nil, nil
	}
	if err != nil {
		return nil, err
	}
	opts = optionsFromPrevious(opts, prev, &sched)
	// A shard's schedule.json holds the whole run; it scores its own share.
	rep, err := scoreOutcomes(sched.OwnShare(), outcomes, opts, src)
	if err != nil {
		return nil, err
	}
	if torn != nil {
		scorer.MarkTornLine(rep, outPath, torn)
	}
	rep.Inputs.ScheduleSHA256 = scoreSHA256Hex(schedBytes)
	rep.Inputs.OutcomesSHA256 = scoreSHA256Hex(outBytes)
	carryPrevious(rep, prev)
	return rep, nil
}

// RunDirTo scores a run directory as RunDir does, in memory that
// does not grow with the number of requests: a plain run's schedule is
// read alongside outcomes.jsonl (any other is held compactly),
// outcomes.jsonl is streamed (once for a plain run when requests is nil
// or a regular file, which a declined pass truncates back to where it
// started; otherwise twice), and the latency populations are counted, not
// kept, with the same exact percentiles.
// Each request's entry is written to requests as one JSON line (in the
// order of outcomes.jsonl, then the requests without a record in schedule
// order) instead of being kept in Report.Requests; requests may be nil to
// drop them. A fresh report from here answers Report.Percentile for the
// stored percentiles and those asked for in opts.Percentiles only.
//
// Inputs outside the runner's plain shape, and every malformed input, are
// handed to RunDir, which reads them strictly in memory and names the
// file, line and field of any error.
func RunDirTo(dir string, opts Options, requests io.Writer) (*report.Report, error) {
	rep, err := scoreRunDirStreaming(dir, opts, requests)
	if !errors.Is(err, schedule.ErrStreamDeclined) {
		return rep, err
	}
	rep, err = RunDir(dir, opts)
	if err != nil {
		return nil, err
	}
	if requests != nil {
		w := bufio.NewWriter(requests)
		enc := json.NewEncoder(w)
		for i := range rep.Requests {
			if err := enc.Encode(&rep.Requests[i]); err != nil {
				return nil, err
			}
		}
		if err := w.Flush(); err != nil {
			return nil, err
		}
	}
	rep.Requests = nil
	rep.Samples = nil
	return rep, nil
}

// optionsFromPrevious completes options left at their zero value from what
// the run's report recorded (prev may be nil).
func optionsFromPrevious(opts Options, prev *report.Report, sched *schedule.Schedule) Options {
	if prev == nil {
		return opts
	}
	opts.FillFrom(prev)
	if opts.WindowMS == nil && (sched.Mode == schedule.ModeClosed || sched.WindowCoversSessions) {
		// A closed loop's window is fixed when the run ends, and so is
		// that of sessions replayed without a duration.
		w := prev.WindowMS
		opts.WindowMS = &w
	}
	return opts
}

// carryPrevious copies what the runner alone observed, which does not
// depend on the SLO, from the run's report (prev may be nil).
func carryPrevious(rep *report.Report, prev *report.Report) {
	if prev == nil {
		return
	}
	rep.Experiment = prev.Experiment
	rep.EngineState = prev.EngineState
	rep.Generator = prev.Generator
	rep.EngineMetrics = prev.EngineMetrics
	rep.BackendMetrics = prev.BackendMetrics
	rep.SetEnginePrefixCacheHitRate(prev.EngineMetrics.PrefixCacheHitRate())
	// The audits are the scorer's own; a run directory written before
	// schedule entries carried the rows' prompt lengths keeps its audit.
	if rep.PromptTokens == nil {
		rep.PromptTokens = prev.PromptTokens
	}
	if rep.OutputLengths == nil {
		rep.OutputLengths = prev.OutputLengths
	}
	rep.GPUTelemetry = prev.GPUTelemetry
	rep.GPUTelemetry.AttributeWork(rep)
	rep.AttachEngineSeries(prev.EngineSeries)
	rep.SetAdapterLoads(prev.AdapterLoads)
}

// FillFrom takes the options left at their zero value from a report: its
// SLO, Wilson confidence, percentile method, endpoint, and the critical
// objectives of its shed-order check.
func (opts *Options) FillFrom(prev *report.Report) {
	opts.SLO = keepUnsetObjectives(opts.SLO, prev.SLO)
	if opts.Confidence == 0 {
		opts.Confidence = prev.WilsonConfidence
	}
	if opts.PercentileMethod == "" {
		opts.PercentileMethod = prev.PercentileMethod
	}
	if opts.Endpoint == "" {
		opts.Endpoint = prev.Endpoint
	}
	if len(opts.CriticalObjectives) == 0 && prev.ShedOrder != nil {
		opts.CriticalObjectives = prev.ShedOrder.Critical
	}
}

// scheduleFileBeside names the schedule that sits beside an outcomes file.
func scheduleFileBeside(outcomesPath string) string {
	return filepath.Join(filepath.Dir(outcomesPath), record.ScheduleFile)
}
