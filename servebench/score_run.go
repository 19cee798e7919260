package servebench

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/servebench/servebench/internal/strictjson"
)

// ScoreRunDir re-scores a run directory written by the runner (schedule.json
// and outcomes.jsonl) without sending anything, and writes nothing.
//
// Both files are read strictly: unknown, missing or duplicate fields,
// non-finite numbers and malformed lines are errors naming the file, line
// and field (a field is missing when json.Marshal would have written it, so
// a record cut short by a crash is caught). A scheduled request with no
// record counts as not_sent, so an interrupted run can still be scored; the
// report says so and is not valid.
//
// Options left at their zero value fall back to what the run's report.json
// recorded, when it exists: the SLO, the Wilson confidence and the
// percentile method; so re-scoring with no options reproduces the run's
// own verdict. The experiment and generator records are carried over from
// it as well, since only the run could observe them.
func ScoreRunDir(dir string, opts ScoreOptions) (*Report, error) {
	schedPath := filepath.Join(dir, ScheduleFile)
	outPath := filepath.Join(dir, OutcomesFile)
	schedBytes, err := os.ReadFile(schedPath)
	if err != nil {
		return nil, &ScoreInputError{File: schedPath, Msg: err.Error()}
	}
	var sched Schedule
	if err := strictjson.Decode(schedBytes, &sched); err != nil {
		return nil, inputErrorFromJSON(schedPath, 0, err)
	}
	if sched.Schema != ScheduleSchema {
		return nil, inputErrorAt(schedPath, 0, schedBytes, "", "schema", "want %q, got %q", ScheduleSchema, sched.Schema)
	}
	outBytes, err := os.ReadFile(outPath)
	if err != nil {
		return nil, &ScoreInputError{File: outPath, Msg: err.Error()}
	}
	lines := splitJSONL(outBytes)
	outcomes, _, err := decodeJSONL(lines, func(l jsonlLine) (Outcome, error) {
		var o Outcome
		if err := strictjson.Decode(l.raw, &o); err != nil {
			return o, inputErrorFromJSON(outPath, l.number, err)
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

	prev, err := readPreviousReport(filepath.Join(dir, ReportFile))
	if err != nil {
		return nil, err
	}
	if prev != nil {
		opts.fillFrom(prev)
		if opts.WindowMS == nil && sched.Mode == "closed" {
			// A closed loop's window is fixed when the run ends.
			w := prev.WindowMS
			opts.WindowMS = &w
		}
	}
	// A shard's schedule.json holds the whole run; it scores its own share.
	rep, err := scoreOutcomes(sched.OwnShare(), outcomes, opts, src)
	if err != nil {
		return nil, err
	}
	rep.Inputs.ScheduleSHA256 = scoreSHA256Hex(schedBytes)
	rep.Inputs.OutcomesSHA256 = scoreSHA256Hex(outBytes)
	if prev != nil {
		// What the runner alone observed does not depend on the SLO.
		rep.Experiment = prev.Experiment
		rep.Generator = prev.Generator
		rep.EngineMetrics = prev.EngineMetrics
		rep.PromptTokens = prev.PromptTokens
		rep.OutputLengths = prev.OutputLengths
	}
	return rep, nil
}

// fillFrom takes the options left at their zero value from a report: its
// SLO, Wilson confidence and percentile method.
func (opts *ScoreOptions) fillFrom(prev *Report) {
	if sloUnset(opts.SLO) {
		fromScheduled := opts.SLO.TTFTFromScheduled
		opts.SLO = prev.SLO
		opts.SLO.TTFTFromScheduled = opts.SLO.TTFTFromScheduled || fromScheduled
	}
	if opts.Confidence == 0 {
		opts.Confidence = prev.WilsonConfidence
	}
	if opts.PercentileMethod == "" {
		opts.PercentileMethod = prev.PercentileMethod
	}
}

// readPreviousReport reads a run's report.json; nil when there is none.
func readPreviousReport(path string) (*Report, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, &ScoreInputError{File: path, Msg: err.Error()}
	}
	var r Report
	if err := json.Unmarshal(data, &r); err != nil {
		return nil, &ScoreInputError{File: path, Msg: fmt.Sprintf("malformed report: %v", err)}
	}
	return &r, nil
}

// scheduleFileBeside names the schedule that sits beside an outcomes file.
func scheduleFileBeside(outcomesPath string) string {
	return filepath.Join(filepath.Dir(outcomesPath), ScheduleFile)
}
