package suites

import (
	"fmt"
	"os"
	"strings"
	"sync"

	"github.com/servebench/servebench/internal/stepsummary"
)

// ContractStepSummary is one contract's markdown verdict, as `servebench
// check --step-summary` and a contract suite write it: a heading naming
// the contract and its file, a table of objective, where (the contract
// line and load point), measured value, bound and verdict, then each
// failure's (and informational miss's) message in a collapsed section.
func ContractStepSummary(c *Contract, verdicts []Verdict) string {
	var b strings.Builder
	fmt.Fprintf(&b, "#### %s (`%s`)\n\n", c.Name, c.Path)
	rows := make([]stepsummary.ObjectiveRow, len(verdicts))
	for i, v := range verdicts {
		objective, bound := splitObjectiveName(v.Name)
		where := fmt.Sprintf("%s:%d", v.At.FileName, v.At.LineNumber)
		if v.LoadPoint != "" {
			where += ", " + v.LoadPoint
		}
		measured := v.Measured
		switch v.Outcome {
		case Skipped:
			measured = "skipped: " + v.Message
		case Unjudged:
			measured = "no value: " + v.Message
		}
		rows[i] = stepsummary.ObjectiveRow{Objective: objective, Where: where, Measured: measured, Bound: bound, Verdict: string(v.Outcome)}
	}
	b.WriteString(stepsummary.Objectives(rows))
	b.WriteString("\n")
	for _, v := range verdicts {
		if v.Outcome == Failed || v.Outcome == Informational {
			b.WriteString(stepsummary.Details(v.Heading(), v.Message))
			b.WriteString("\n")
		}
	}
	return b.String()
}

// judged collects, by contract name, the verdicts a suite's specs gave,
// for the contract's step summary at the end of its container.
var judged = struct {
	sync.Mutex
	byName map[string][]Verdict
}{byName: map[string][]Verdict{}}

// collect keeps v for its contract's step summary.
func collect(v Verdict) {
	judged.Lock()
	defer judged.Unlock()
	judged.byName[v.Contract] = append(judged.byName[v.Contract], v)
}

// appendContractSummary appends c's verdicts, as judged by the suite, to
// $GITHUB_STEP_SUMMARY when it is set; the verdicts are then dropped.
func appendContractSummary(c *Contract) error {
	judged.Lock()
	vs := judged.byName[c.Name]
	delete(judged.byName, c.Name)
	judged.Unlock()
	paths := stepsummary.Paths("", os.Getenv)
	if len(paths) == 0 || len(vs) == 0 {
		return nil
	}
	return stepsummary.Append(paths, ContractStepSummary(c, vs))
}
