package main

import (
	"fmt"
	"strings"

	"github.com/servebench/servebench/suites"
)

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
		b.WriteString(suites.ContractStepSummary(r.contract, r.verdicts))
	}
	return b.String()
}
