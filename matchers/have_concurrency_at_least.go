package matchers

import (
	"fmt"
	"strings"

	"github.com/servebench/servebench/servebench/capacity"

	"github.com/onsi/gomega/format"
	"github.com/onsi/gomega/types"

	"github.com/servebench/servebench/internal/numfmt"
)

// HaveConcurrencyAtLeast succeeds when a user search's SLO concurrency, the
// highest tested number of closed-loop users whose attainment meets the
// sweep's rule with no request unsent, is at least users. The selection is
// recomputed from the sweep's points and rule. It is a number of users,
// never a capacity in requests per second (see HaveCapacityAtLeast for
// that).
//
//	sweep, _ := capacity.RunSweep(ctx, cfg, capacity.Plan{Users: &capacity.AutoUsers{}, Rule: rule})
//	Expect(sweep).To(matchers.HaveConcurrencyAtLeast(16))
//
// The actual is a *capacity.Sweep or a capacity.Sweep from a user
// search. A target below 1 and a sweep without user points are errors.
func HaveConcurrencyAtLeast(users int) types.GomegaMatcher {
	return concurrencyMatcher{target: users}
}

// concurrencyMatcher holds only its expectation; see HaveConcurrencyAtLeast.
type concurrencyMatcher struct{ target int }

// evaluate judges actual; it keeps nothing, so every method may call it.
func (m concurrencyMatcher) evaluate(actual any) (capacity.Sweep, capacity.ConcurrencySelection, error) {
	const who = "HaveConcurrencyAtLeast"
	var s capacity.Sweep
	if m.target < 1 {
		return s, capacity.ConcurrencySelection{}, fmt.Errorf("%s needs at least 1 user, got %d", who, m.target)
	}
	switch a := actual.(type) {
	case *capacity.Sweep:
		if a == nil {
			return s, capacity.ConcurrencySelection{}, fmt.Errorf("%s expects a sweep, got a nil one", who)
		}
		s = *a
	case capacity.Sweep:
		s = a
	default:
		return s, capacity.ConcurrencySelection{}, fmt.Errorf("%s expects a *capacity.Sweep or a capacity.Sweep.  Got:\n%s", who, format.Object(actual, 1))
	}
	for _, p := range s.Points {
		if p.Users < 1 {
			return s, capacity.ConcurrencySelection{}, fmt.Errorf("%s judges a closed-loop user search, and this sweep has a point without users (an offered-rate sweep: use HaveCapacityAtLeast)", who)
		}
	}
	if len(s.Points) == 0 {
		return s, capacity.ConcurrencySelection{}, fmt.Errorf("%s cannot judge a sweep without points: no number of users was tested", who)
	}
	return s, capacity.SelectConcurrency(s.Points, s.Rule), nil
}

// Match reports whether the SLO concurrency reaches the target.
func (m concurrencyMatcher) Match(actual any) (bool, error) {
	_, sel, err := m.evaluate(actual)
	return err == nil && sel.Users != nil && *sel.Users >= m.target, err
}

// FailureMessage states the SLO concurrency, its bracket and each point.
func (m concurrencyMatcher) FailureMessage(actual any) string {
	return m.message(actual, "to be at least")
}

// NegatedFailureMessage states the same for the negation.
func (m concurrencyMatcher) NegatedFailureMessage(actual any) string {
	return m.message(actual, "not to be at least")
}

// String names the objective, for MeetSLOs and spec reports.
func (m concurrencyMatcher) String() string {
	return fmt.Sprintf("SLO concurrency >= %d users", m.target)
}

func (m concurrencyMatcher) message(actual any, relation string) string {
	s, sel, err := m.evaluate(actual)
	if err != nil {
		return err.Error()
	}
	var b strings.Builder
	if sel.Users == nil {
		fmt.Fprintf(&b, "Expected SLO concurrency %s %d users, but no tested number of users passed", relation, m.target)
	} else {
		fmt.Fprintf(&b, "Expected SLO concurrency %d users %s %d users\nanswer: %s", *sel.Users, relation, m.target, capacity.BracketOf(s.Points, s.Rule))
	}
	b.WriteString("\ntested points:")
	for _, v := range sel.Verdicts {
		fmt.Fprintf(&b, "\n    %d users: %s (attainment %s)", v.Users, v.Verdict, numfmt.OptFixed(v.Attainment, 3))
		if len(v.Reasons) > 0 {
			b.WriteString(": " + strings.Join(v.Reasons, "; "))
		}
	}
	for _, n := range sel.Notes {
		b.WriteString("\nnote: " + n)
	}
	return b.String()
}
