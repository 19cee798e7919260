package stepsummary

// ComparisonRow is one statistic's row of a comparison's verdict table.
type ComparisonRow struct {
	// Statistic names what was compared: "ttft_p99".
	Statistic string
	// Baseline and Candidate are the two sides' values; Change the
	// candidate's change (positive is worse), Interval its interval and
	// Tolerance the change allowed, each formatted in the statistic's
	// unit.
	Baseline, Candidate, Change, Interval, Tolerance string
	// Verdict is the statistic's verdict: regression, no_regression,
	// inconclusive, insufficient_data, informational, ….
	Verdict string
}

// Comparisons renders a table of statistic, baseline, candidate, change,
// interval, tolerance and verdict, a regression in bold.
func Comparisons(rows []ComparisonRow) string {
	cells := make([][]string, len(rows))
	for i, r := range rows {
		verdict := r.Verdict
		if verdict == "regression" {
			verdict = "**regression**"
		}
		cells[i] = []string{r.Statistic, r.Baseline, r.Candidate, r.Change, r.Interval, r.Tolerance, verdict}
	}
	return Table([]string{"statistic", "baseline", "candidate", "change", "interval", "tolerance", "verdict"}, cells)
}
