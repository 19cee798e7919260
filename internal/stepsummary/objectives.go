package stepsummary

// ObjectiveRow is one objective's row of a verdict table.
type ObjectiveRow struct {
	// Objective names what was judged: "p99 TTFT".
	Objective string
	// Where says where it was judged or declared: a contract's file:line
	// and load point; empty when there is nothing to add.
	Where string
	// Measured is the judged value; Bound the objective's bound: "<= 500
	// ms".
	Measured, Bound string
	// Verdict is pass, fail or skip.
	Verdict string
}

// Objectives renders a table of objective, where, measured value, bound
// and verdict, a failed verdict in bold.
func Objectives(rows []ObjectiveRow) string {
	cells := make([][]string, len(rows))
	for i, r := range rows {
		verdict := r.Verdict
		if verdict == "fail" {
			verdict = "**fail**"
		}
		cells[i] = []string{r.Objective, r.Where, r.Measured, r.Bound, verdict}
	}
	return Table([]string{"objective", "where", "measured", "bound", "verdict"}, cells)
}
