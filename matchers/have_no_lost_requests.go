package matchers

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/onsi/gomega/types"

	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/servebench/report"
)

// HaveNoLostRequests succeeds when every scheduled request has a terminal
// outcome: the report has exactly one entry per offered request, each with
// a known terminal status (not_sent and cancelled count: they are terminal
// records, not losses). Given a *servebench.RunResult it also checks the
// run's schedule and outcome records: every schedule entry has an outcome
// with a status and an entry in the report, and the report names no
// request that was not scheduled. A run's report keeps its entries in
// requests.jsonl: given that run's *servebench.RunResult, the matcher reads
// them there, one at a time.
//
//	Expect(result).To(matchers.HaveNoLostRequests())
//
// A report with no offered requests is an error.
func HaveNoLostRequests() types.GomegaMatcher {
	return noLostMatcher{}
}

// noLostMatcher has no expectation; see HaveNoLostRequests.
type noLostMatcher struct{}

// noLostVerdict is the matcher's judgment of one report or run.
type noLostVerdict struct {
	report    *report.Report
	scheduled int
	problems  []string
}

// evaluate judges actual; it keeps nothing, so every method may call it.
func (m noLostMatcher) evaluate(actual any) (noLostVerdict, error) {
	r, err := reportFrom("HaveNoLostRequests", actual)
	if err != nil {
		return noLostVerdict{}, err
	}
	v := noLostVerdict{report: r, scheduled: r.Offered}
	seen := map[string]bool{}
	for i := range r.Requests {
		v.checkEntry(seen, i+1, &r.Requests[i], "report", "the report")
	}
	if len(r.Requests) == 0 && r.RequestsFile != "" {
		return m.evaluateFile(actual, v)
	}
	sched, outcomes, ok, err := runRecords(actual)
	if err != nil {
		return v, fmt.Errorf("HaveNoLostRequests: %w", err)
	}
	if !ok || sched == nil {
		if len(r.Requests) != r.Offered {
			v.problems = append(v.problems, fmt.Sprintf("the report has %d request entries for %d offered requests", len(r.Requests), r.Offered))
		}
		return v, nil
	}
	v.scheduled = len(sched.Entries)
	// An entry's logical result is its last attempt.
	final := map[string]record.Outcome{}
	for _, o := range outcomes {
		if prev, has := final[o.ID]; !has || o.Attempt >= prev.Attempt {
			final[o.ID] = o
		}
	}
	inSchedule := map[string]bool{}
	for _, e := range sched.Entries {
		inSchedule[e.ID] = true
		o, has := final[e.ID]
		switch {
		case !has:
			v.problems = append(v.problems, e.ID+": no outcome record")
		case o.Status == "":
			v.problems = append(v.problems, e.ID+": outcome record without a status")
		}
		if !seen[e.ID] {
			v.problems = append(v.problems, e.ID+": missing from the report")
		}
	}
	for _, rs := range r.Requests {
		if rs.ID != "" && !inSchedule[rs.ID] {
			v.problems = append(v.problems, rs.ID+": in the report but not in the schedule")
		}
	}
	return v, nil
}

// checkEntry records the problems of the n-th request entry of a list
// (named in the messages as name, and where as a place); false when it had
// one. seen collects the IDs.
func (v *noLostVerdict) checkEntry(seen map[string]bool, n int, rs *report.RequestScore, name, where string) bool {
	problem := ""
	switch {
	case rs.ID == "":
		problem = fmt.Sprintf("%s entry %d has no ID", name, n)
	case seen[rs.ID]:
		problem = fmt.Sprintf("%s: listed more than once in %s", rs.ID, where)
	case rs.Status == "":
		problem = rs.ID + ": no terminal status"
	case !rs.Status.Valid():
		problem = fmt.Sprintf("%s: unknown terminal status %q", rs.ID, rs.Status)
	}
	seen[rs.ID] = true
	if problem != "" {
		v.problems = append(v.problems, problem)
	}
	return problem == ""
}

// evaluateFile judges a report whose request entries are in a file (a
// run's report): the file must hold one entry per offered request, each
// with a known terminal status, and none scored without an outcome record.
// It holds one ID per request.
func (m noLostMatcher) evaluateFile(actual any, v noLostVerdict) (noLostVerdict, error) {
	path := v.report.RequestsFile
	if dir, ok := runDir(actual); ok && !filepath.IsAbs(path) {
		// A run result names its directory, whatever its report knows.
		v.report.SetRunDir(dir)
		path = filepath.Join(dir, path)
	}
	seen := map[string]bool{}
	n := 0
	err := v.report.EachRequest(func(rs *report.RequestScore) error {
		n++
		// Without the outcome records, the entry says whether it had one.
		if v.checkEntry(seen, n, rs, path, path) && rs.HadNoRecord() {
			v.problems = append(v.problems, rs.ID+": no outcome record")
		}
		return nil
	})
	if err != nil {
		return v, fmt.Errorf("HaveNoLostRequests: %w", err)
	}
	if n != v.report.Offered {
		v.problems = append(v.problems, fmt.Sprintf("%s has %d request entries for %d offered requests", path, n, v.report.Offered))
	}
	return v, nil
}

// Match reports whether no request was lost.
func (m noLostMatcher) Match(actual any) (bool, error) {
	v, err := m.evaluate(actual)
	return len(v.problems) == 0, err
}

// FailureMessage lists the lost or malformed requests.
func (m noLostMatcher) FailureMessage(actual any) string {
	v, err := m.evaluate(actual)
	if err != nil {
		return err.Error()
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Expected every one of the %d scheduled requests to have a terminal outcome, but found %d %s:",
		v.scheduled, len(v.problems), plural(len(v.problems), "problem", "problems"))
	for i, p := range v.problems {
		if i == 2*worstShown {
			fmt.Fprintf(&b, "\n    ... and %d more", len(v.problems)-i)
			break
		}
		b.WriteString("\n    " + p)
	}
	fmt.Fprintf(&b, "\nterminal statuses: %s", statusCounts(v.report))
	return b.String()
}

// NegatedFailureMessage says that every request has a terminal outcome.
func (m noLostMatcher) NegatedFailureMessage(actual any) string {
	v, err := m.evaluate(actual)
	if err != nil {
		return err.Error()
	}
	return fmt.Sprintf("Expected some of the %d scheduled requests to lack a terminal outcome, but every one has one (terminal statuses: %s)",
		v.scheduled, statusCounts(v.report))
}

// String names the objective, for MeetSLOs and spec reports.
func (m noLostMatcher) String() string { return "no lost requests" }

// plural picks the word form for a count.
func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
