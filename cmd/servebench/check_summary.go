package main

import (
	"fmt"
	"strings"

	"github.com/servebench/servebench/internal/stepsummary"
	"github.com/servebench/servebench/suites"
)

// boundRelations are the relations an objective's name states its bound
// with: "p99 TTFT <= 500 ms".
var boundRelations = []string{" <= ", " >= ", " < ", " > "}

// splitBound splits an objective's name into what it bounds and its
// bound: "p99 TTFT <= 500 ms" is "p99 TTFT" and "<= 500 ms"; a name that
// states no bound ("valid load", a comparison) is returned whole.
func splitBound(name string) (objective, bound string) {
	for _, rel := range boundRelations {
		if i := strings.Index(name, rel); i >= 0 {
			return name[:i], strings.TrimSpace(name[i:])
		}
	}
	return name, ""
}

// checkStepSummary is check's markdown verdict: a heading with the exit
// code, then per contract a table of objective, where, measured value,
// bound and verdict, and each failure's message in a collapsed section.
func checkStepSummary(results []contractResult, code int) string {
	var b strings.Builder
	verdict := "pass"
	if code != 0 {
		verdict = "fail"
	}
	fmt.Fprintf(&b, "### servebench check: %s (exit %d: %s)\n\n", verdict, code, checkExitMeaning[code])
	for _, r := range results {
		fmt.Fprintf(&b, "#### %s (`%s`)\n\n", r.contract.Name, r.contract.Path)
		rows := make([]stepsummary.ObjectiveRow, len(r.verdicts))
		for i, v := range r.verdicts {
			objective, bound := splitBound(v.Name)
			where := fmt.Sprintf("%s:%d", v.At.FileName, v.At.LineNumber)
			if v.LoadPoint != "" {
				where += ", " + v.LoadPoint
			}
			measured := v.Measured
			switch v.Outcome {
			case suites.Skipped:
				measured = "skipped: " + v.Message
			case suites.Unjudged:
				measured = "no value: " + v.Message
			}
			rows[i] = stepsummary.ObjectiveRow{Objective: objective, Where: where, Measured: measured, Bound: bound, Verdict: string(v.Outcome)}
		}
		b.WriteString(stepsummary.Objectives(rows))
		b.WriteString("\n")
		for _, v := range r.verdicts {
			if v.Outcome == suites.Failed || v.Outcome == suites.Informational {
				b.WriteString(stepsummary.Details(v.Heading(), v.Message))
				b.WriteString("\n")
			}
		}
	}
	return b.String()
}
