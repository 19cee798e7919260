package main

import (
	"fmt"
	"strings"

	"github.com/servebench/servebench/internal/stepsummary"
	"github.com/servebench/servebench/servebench/history"
)

// historyStepSummary is history's markdown verdict: a heading with the
// newest release's verdict and exit code, then a row per judged statistic
// of the newest release under the policy, and the reasons.
func historyStepSummary(h *history.History, code int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "### servebench history: %s (exit %d)\n\n", h.Verdict.Headline(), code)
	var rows []stepsummary.ComparisonRow
	if h.Policy == history.PolicyRatio {
		rows = ratioRows(h)
	} else {
		rows = changepointRows(h)
	}
	if len(rows) > 0 {
		b.WriteString(stepsummary.Comparisons(rows))
		b.WriteString("\n")
	}
	for _, r := range h.Verdict.Reasons {
		fmt.Fprintf(&b, "- %s\n", stepsummary.Cell(r))
	}
	if len(h.Verdict.Reasons) > 0 {
		b.WriteString("\n")
	}
	return b.String()
}

// ratioRows are the newest release's rows under the ratio policy: the
// baseline is the median of the window before it, the change the ratio
// to it (signed so that positive is worse: baseline/value − 1 for a
// throughput, as compare) and the tolerance the ratio's.
func ratioRows(h *history.History) []stepsummary.ComparisonRow {
	var rows []stepsummary.ComparisonRow
	newest := len(h.Releases) - 1
	for _, s := range h.Ratio.Series {
		n := len(s.Points)
		if n == 0 || s.Points[n-1].Index != newest {
			continue
		}
		p := s.Points[n-1]
		change := p.Value/p.Baseline - 1
		if s.LessIsWorse {
			change = p.Baseline/p.Value - 1
		}
		verdict := history.NoRegression
		if p.Violates && n >= 2 && s.Points[n-2].Violates {
			verdict = history.Regression
		}
		rows = append(rows, stepsummary.ComparisonRow{Statistic: s.Metric, Baseline: historyValue(s.Metric, p.Baseline),
			Candidate: historyValue(s.Metric, p.Value), Change: fmt.Sprintf("%+.2f%%", 100*change),
			Tolerance: fmt.Sprintf("%.0f%%", 100*(h.Ratio.Ratio-1)), Verdict: verdict})
	}
	return rows
}

// changepointRows are the newest release's rows under the changepoint
// policy: one per statistic with a tolerance, with the change that starts
// at the newest release where there is one.
func changepointRows(h *history.History) []stepsummary.ComparisonRow {
	if h.TooShort() {
		return nil
	}
	newest := len(h.Releases) - 1
	var rows []stepsummary.ComparisonRow
	for _, s := range h.Metrics {
		tol, ok := h.Tolerances[s.Metric]
		if !ok {
			continue
		}
		row := stepsummary.ComparisonRow{Statistic: s.Metric, Candidate: historyValue(s.Metric, s.Values[newest]),
			Change: "no change", Tolerance: historySize(s, tol), Verdict: history.NoRegression}
		for _, c := range s.Changes {
			if c.Index != newest {
				continue
			}
			row.Baseline, row.Change = historyValue(s.Metric, c.Before), historySize(s, c.Size)
			if c.CILow != nil && c.CIHigh != nil {
				row.Interval = fmt.Sprintf("[%s, %s]", historySize(s, *c.CILow), historySize(s, *c.CIHigh))
			}
			if c.Size > tol {
				row.Verdict = history.Regression
			}
		}
		rows = append(rows, row)
	}
	return rows
}

// historyValue formats a value of metric m in its unit.
func historyValue(m string, v float64) string {
	switch {
	case m == history.QualifiedRPS:
		return fmt.Sprintf("%.3f req/s", v)
	case m == history.OutputTokensPerSecond:
		return fmt.Sprintf("%.1f tokens/s", v)
	case m == "attainment" || m == "error_rate":
		return fmt.Sprintf("%.4f", v)
	}
	return fmt.Sprintf("%.2f ms", v)
}

// historySize formats a change: a percentage for a ratio series, points
// for a fraction.
func historySize(s history.Series, v float64) string {
	if s.Relative {
		return fmt.Sprintf("%+.2f%%", 100*v)
	}
	return fmt.Sprintf("%+.2f pt", 100*v)
}
