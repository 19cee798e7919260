package matchers

import (
	"fmt"

	"github.com/servebench/servebench/servebench/report"

	"github.com/onsi/gomega/format"

	"github.com/servebench/servebench/servebench"
)

// reportFrom extracts the report that the matcher named by who judges. It
// accepts a *report.Report, a report.Report and whatever
// runReport recognizes; a nil report, a report with no offered requests and
// a value of any other type are errors.
func reportFrom(who string, actual any) (*report.Report, error) {
	var r *report.Report
	switch a := actual.(type) {
	case *report.Report:
		r = a
	case report.Report:
		r = &a
	case *servebench.LiveRun:
		return nil, fmt.Errorf("%s needs a finished run: pass the result of the live run's Wait (only HaveAttainmentAtLeast and HaveWilsonLowerBoundAbove judge a run in progress)", who)
	default:
		var ok bool
		if r, ok = runReport(actual); !ok {
			return nil, fmt.Errorf("%s expects a *report.Report, a report.Report or a *servebench.RunResult.  Got:\n%s",
				who, format.Object(actual, 1))
		}
	}
	if r == nil {
		if _, isRun := runReport(actual); isRun {
			return nil, fmt.Errorf("%s expects a report, got a nil one: the run result holds no report (or is nil)", who)
		}
		return nil, fmt.Errorf("%s expects a report, got a nil one", who)
	}
	if r.Offered <= 0 {
		return nil, fmt.Errorf("%s cannot judge a report with no offered requests (offered = %d): there is nothing to measure", who, r.Offered)
	}
	return r, nil
}
