package render

import (
	"bufio"
	"fmt"

	"github.com/servebench/servebench/internal/numfmt"
	"github.com/servebench/servebench/servebench/report"
)

// reasonCountText is a criterion's count, split for the latency criteria
// into "above the objective" and "not measurable".
func reasonCountText(r *report.Report, reason report.Reason) string {
	n := r.ReasonCounts[reason]
	if split := reasonSplitText(r, reason); split != "" {
		return fmt.Sprintf("%d (%s)", n, split)
	}
	return fmt.Sprint(n)
}

// reasonSplitText divides a latency criterion's failures into above the
// objective and not measurable; empty for another criterion or none.
func reasonSplitText(r *report.Report, reason report.Reason) string {
	n := r.ReasonCounts[reason]
	unmeasurable, split := r.UnmeasurableCounts[reason]
	if !split || n == 0 {
		return ""
	}
	return fmt.Sprintf("%d above the objective, %d not measurable", n-unmeasurable, unmeasurable)
}

// backlogText gives the outstanding counts and whether the backlog grew,
// with the margin the rule used.
func backlogText(b *report.Backlog) string {
	return fmt.Sprintf("%d at window midpoint, %d at window end (%s)", b.AtWindowMid, b.AtWindowEnd, backlogVerdictText(b))
}

// backlogVerdictText says whether the backlog grew and by which margin.
func backlogVerdictText(b *report.Backlog) string {
	if b.Inconclusive {
		return b.Note
	}
	verdict, cmp := "not growing", "<="
	if b.Growing {
		verdict, cmp = "GROWING", ">"
	}
	if b.Margin == nil {
		return verdict
	}
	return fmt.Sprintf("%s: end − midpoint = %d %s margin %s = max(2, 10%% of %s scheduled in the second half)",
		verdict, b.AtWindowEnd-b.AtWindowMid, cmp, numfmt.Compact(*b.Margin),
		numfmt.Count(b.SecondHalfScheduled, "request", "requests"))
}

// writeFirstUnqualifiedText lists the first unqualified requests with ID
// and reason.
func writeFirstUnqualifiedText(bw *bufio.Writer, rule func(string), r *report.Report) {
	if len(r.FirstUnqualified) == 0 {
		return
	}
	unqualified := r.Offered - r.Qualified
	rule(fmt.Sprintf("First %d of %d unqualified requests", len(r.FirstUnqualified), unqualified))
	for _, u := range r.FirstUnqualified {
		fmt.Fprintf(bw, "%-20s %s\n", u.ID, u.Explanation)
	}
}
