package matchers

import (
	"fmt"
	"sort"
	"strings"

	"github.com/onsi/gomega/types"

	"github.com/servebench/servebench/internal/numfmt"
	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/servebench/report"
)

// BeValidLoad succeeds when the run delivered its load: every offered
// request was sent, each within the declared schedule lag tolerance
// (default 20 ms), and the scorer found no other reason to call the run
// invalid. Only a valid run is evidence for the offered rate it declares;
// check it before trusting any latency or attainment at that rate.
//
//	Expect(report).To(matchers.BeValidLoad())
//
// A report with no offered requests is an error.
func BeValidLoad() types.GomegaMatcher {
	return validLoadMatcher{}
}

// validLoadMatcher has no expectation; see BeValidLoad.
type validLoadMatcher struct{}

// validLoadVerdict is the matcher's judgment of one report.
type validLoadVerdict struct {
	report *report.Report
	unsent int
	pass   bool
}

// evaluate judges actual; it keeps nothing, so every method may call it.
func (m validLoadMatcher) evaluate(actual any) (validLoadVerdict, error) {
	r, err := reportFrom("BeValidLoad", actual)
	if err != nil {
		return validLoadVerdict{}, err
	}
	unsent := r.StatusCounts[record.StatusNotSent]
	return validLoadVerdict{report: r, unsent: unsent, pass: r.Valid && unsent == 0 && r.LateCount == 0}, nil
}

// Match reports whether the load was delivered.
func (m validLoadMatcher) Match(actual any) (bool, error) {
	v, err := m.evaluate(actual)
	return v.pass, err
}

// FailureMessage says what was not delivered: unsent and late requests, the
// largest lag and the scorer's reasons.
func (m validLoadMatcher) FailureMessage(actual any) string {
	v, err := m.evaluate(actual)
	if err != nil {
		return err.Error()
	}
	r := v.report
	var b strings.Builder
	fmt.Fprintf(&b, "Expected the load to be delivered (all %d offered requests sent, schedule lag at most %s), but %d %s never sent and %d %s sent late (max schedule lag %s)",
		r.Offered, numfmt.MS(r.ScheduleLagToleranceMS), v.unsent, wasWere(v.unsent), r.LateCount, wasWere(r.LateCount), numfmt.OptMS(r.MaxScheduleLagMS))
	for _, why := range r.InvalidReasons {
		b.WriteString("\ninvalid: " + why)
	}
	if g := r.Generator; g != nil {
		if g.Saturated {
			b.WriteString("\nthe load generator was saturated")
		}
		for _, n := range g.Notes {
			b.WriteString("\ngenerator: " + n)
		}
	}
	b.WriteString(requestList("latest requests", undelivered(r)))
	return b.String()
}

// NegatedFailureMessage says that the load was delivered.
func (m validLoadMatcher) NegatedFailureMessage(actual any) string {
	v, err := m.evaluate(actual)
	if err != nil {
		return err.Error()
	}
	r := v.report
	return fmt.Sprintf("Expected the load not to be delivered, but all %d offered requests were sent within the %s schedule lag tolerance (max schedule lag %s)",
		r.Offered, numfmt.MS(r.ScheduleLagToleranceMS), numfmt.OptMS(r.MaxScheduleLagMS))
}

// String names the objective, for MeetSLOs and spec reports.
func (m validLoadMatcher) String() string { return "valid load" }

// undelivered lists the unsent requests, then the late ones from the
// largest lag down.
func undelivered(r *report.Report) []report.RequestScore {
	var unsent, late []report.RequestScore
	for _, rs := range requestEntries(r) {
		switch {
		case rs.SentMS == nil:
			unsent = append(unsent, rs)
		case rs.ScheduleLagMS != nil && *rs.ScheduleLagMS > r.ScheduleLagToleranceMS:
			late = append(late, rs)
		}
	}
	sort.SliceStable(late, func(i, j int) bool { return *late[i].ScheduleLagMS > *late[j].ScheduleLagMS })
	return append(unsent, late...)
}

// wasWere agrees a verb with a count.
func wasWere(n int) string {
	if n == 1 {
		return "was"
	}
	return "were"
}

// Measured states what was delivered: "40 of 40 sent, 0 late".
func (m validLoadMatcher) Measured(actual any) (string, error) {
	v, err := m.evaluate(actual)
	if err != nil {
		return "", err
	}
	r := v.report
	return fmt.Sprintf("%d of %d sent, %d late", r.Offered-v.unsent, r.Offered, r.LateCount), nil
}
