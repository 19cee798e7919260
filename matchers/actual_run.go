package matchers

import (
	"github.com/servebench/servebench/servebench"
	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/servebench/report"
	"github.com/servebench/servebench/servebench/schedule"
)

// runReport returns the report of a run result; ok is false when actual is
// not a run result. A run result without a report yields a nil report,
// which reportFrom turns into an error.
func runReport(actual any) (r *report.Report, ok bool) {
	switch a := actual.(type) {
	case *servebench.RunResult:
		if a == nil {
			return nil, true
		}
		return a.Report, true
	case servebench.RunResult:
		return a.Report, true
	}
	return nil, false
}

// runRecords returns the schedule and outcome records of a run result,
// read back from its outcomes.jsonl; ok is false when actual is not a run
// result.
func runRecords(actual any) (sched *schedule.Schedule, outcomes []record.Outcome, ok bool, err error) {
	var a *servebench.RunResult
	switch v := actual.(type) {
	case *servebench.RunResult:
		a = v
	case servebench.RunResult:
		a = &v
	default:
		return nil, nil, false, nil
	}
	if a == nil {
		return nil, nil, true, nil
	}
	for o, err := range a.Outcomes() {
		if err != nil {
			return nil, nil, true, err
		}
		outcomes = append(outcomes, *o)
	}
	return a.Schedule, outcomes, true, nil
}

// runDir returns the directory of a run result; ok is false when actual is
// not one.
func runDir(actual any) (dir string, ok bool) {
	switch a := actual.(type) {
	case *servebench.RunResult:
		if a == nil {
			return "", false
		}
		return a.Dir, true
	case servebench.RunResult:
		return a.Dir, true
	}
	return "", false
}
