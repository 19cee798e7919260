package suites

import (
	"fmt"
	"os"
	"strings"

	"github.com/onsi/ginkgo/v2/types"

	"github.com/servebench/servebench/internal/stepsummary"
)

// MeasuredEntryName names the report entry that keeps a judged spec's
// measured value, for the step summary (it is not shown on the console).
const MeasuredEntryName = "servebench measured"

// AppendStepSummary appends a markdown verdict of a contract suite's
// report to path and to $GITHUB_STEP_SUMMARY when it is set (path may be
// empty): a heading with the suite's outcome, then a table of objective,
// where (the contract line and load point), measured value, bound and
// verdict (pass, fail, skip, unjudged or informational), as `servebench
// check --step-summary` writes. Call it from a ReportAfterSuite:
//
//	var _ = ReportAfterSuite("contracts in the step summary", func(r Report) {
//		Expect(suites.AppendStepSummary(r, "")).To(Succeed())
//	})
func AppendStepSummary(report types.Report, path string) error {
	paths := stepsummary.Paths(path, os.Getenv)
	if len(paths) == 0 {
		return nil
	}
	return stepsummary.Append(paths, StepSummary(report))
}

// StepSummary is the markdown verdict AppendStepSummary appends.
func StepSummary(report types.Report) string {
	var b strings.Builder
	verdict := "pass"
	if !report.SuiteSucceeded {
		verdict = "fail"
	}
	fmt.Fprintf(&b, "### %s: %s\n\n", report.SuiteDescription, verdict)
	var rows []stepsummary.ObjectiveRow
	var failures []string
	for _, spec := range report.SpecReports {
		if spec.LeafNodeType != types.NodeTypeIt {
			continue
		}
		row := specRow(spec)
		rows = append(rows, row)
		if row.Verdict == "fail" || row.Verdict == "informational" {
			failures = append(failures, stepsummary.Details(row.Objective+" "+row.Bound, spec.Failure.Message+informationalMessage(spec)))
		}
	}
	b.WriteString(stepsummary.Objectives(rows))
	b.WriteString("\n")
	for _, f := range failures {
		b.WriteString(f)
		b.WriteString("\n")
	}
	return b.String()
}

// specRow is one spec's row.
func specRow(spec types.SpecReport) stepsummary.ObjectiveRow {
	objective, bound := splitObjectiveName(spec.LeafNodeText)
	where := fmt.Sprintf("%s:%d", spec.LeafNodeLocation.FileName, spec.LeafNodeLocation.LineNumber)
	if h := spec.ContainerHierarchyTexts; len(h) > 1 {
		where += ", " + h[len(h)-1]
	}
	row := stepsummary.ObjectiveRow{Objective: objective, Bound: bound, Where: where}
	for _, e := range spec.ReportEntries {
		if e.Name == MeasuredEntryName {
			row.Measured = e.StringRepresentation()
		}
	}
	switch {
	case spec.State == types.SpecStatePassed && informationalMessage(spec) != "":
		row.Verdict = string(Informational)
	case spec.State == types.SpecStatePassed:
		row.Verdict = string(Passed)
	case spec.State == types.SpecStateSkipped && strings.HasPrefix(spec.Failure.Message, "unjudged: "):
		row.Verdict, row.Measured = string(Unjudged), "no value: "+strings.TrimPrefix(spec.Failure.Message, "unjudged: ")
	case spec.State == types.SpecStateSkipped:
		row.Verdict, row.Measured = string(Skipped), "skipped: "+spec.Failure.Message
	default:
		row.Verdict = string(Failed)
	}
	return row
}

// informationalMessage is the message of an informational objective that
// did not hold; "" for any other spec.
func informationalMessage(spec types.SpecReport) string {
	for _, e := range spec.ReportEntries {
		if e.Name == InformationalEntryName {
			return e.StringRepresentation()
		}
	}
	return ""
}

// splitObjectiveName splits "p99 TTFT <= 500 ms" into what it bounds and
// its bound; a name that states no bound is returned whole.
func splitObjectiveName(name string) (objective, bound string) {
	for _, rel := range []string{" <= ", " >= ", " < ", " > "} {
		if i := strings.Index(name, rel); i >= 0 {
			return name[:i], strings.TrimSpace(name[i:])
		}
	}
	return name, ""
}
