package matchers

import (
	"fmt"

	"github.com/servebench/servebench/servebench/report"

	"github.com/onsi/gomega"

	"github.com/servebench/servebench/servebench"
)

// liveReport judges a run in progress for the matchers whose verdict can
// only improve as it goes on (attainment and its Wilson bound: a pending
// request counts as unqualified until it ends). For any other actual it
// defers to reportFrom. live is nil when actual is not a live run.
func liveReport(who string, actual any) (r *report.Report, live *servebench.LiveRun, err error) {
	l, ok := actual.(*servebench.LiveRun)
	if !ok {
		r, err = reportFrom(who, actual)
		return r, nil, err
	}
	if l == nil {
		return nil, nil, fmt.Errorf("%s expects a live run, got a nil one", who)
	}
	if r, err = l.Snapshot(); err != nil {
		return nil, l, fmt.Errorf("%s could not score the live run: %w", who, err)
	}
	if r.Offered <= 0 {
		return nil, l, fmt.Errorf("%s cannot judge a run with no offered requests", who)
	}
	return r, l, nil
}

// mayChange is the matchers' MatchMayChangeInTheFuture: only a live run
// that has not finished can change.
func mayChange(actual any) bool {
	l, ok := actual.(*servebench.LiveRun)
	return ok && l != nil && !l.Finished()
}

// unreachable is the error that makes Eventually stop polling a live run
// whose target can no longer be met even if every pending request
// qualifies.
func unreachable(what string, best, target float64, r *report.Report) error {
	return gomega.StopTrying(fmt.Sprintf(
		"%s cannot reach %.3f any more: even if all %d pending requests qualify, the best is %.3f (%d qualified of %d offered so far)",
		what, target, r.Pending, best, r.Qualified, r.Offered))
}

// pendingLine notes a snapshot's pending requests in a message.
func pendingLine(r *report.Report) string {
	if r.Pending == 0 {
		return ""
	}
	return fmt.Sprintf("\n(live run: %d of %d offered requests still pending, counted as unqualified; the snapshot can only rise)", r.Pending, r.Offered)
}
