package suites

import (
	"strings"
	"testing"

	"github.com/onsi/ginkgo/v2/types"
)

// A suite report of four specs, one of each kind: passed with its measured
// value, failed, skipped as unjudged, and informational (passed, with the
// informational entry). The summary's rows give each verdict, and the
// failure and the informational miss get their messages below.
func TestStepSummaryOfASuiteReport(t *testing.T) {
	at := func(line int) types.CodeLocation { return types.CodeLocation{FileName: "c.yaml", LineNumber: line} }
	entry := func(name, value string) types.ReportEntry {
		return types.ReportEntry{Name: name, Value: types.WrapEntryValue(value)}
	}
	hierarchy := []string{"contract c", "constant 40 requests at 20 req/s"}
	r := types.Report{SuiteDescription: "contracts", SuiteSucceeded: false, SpecReports: types.SpecReports{
		{LeafNodeType: types.NodeTypeIt, LeafNodeText: "attainment >= 0.950", LeafNodeLocation: at(12), ContainerHierarchyTexts: hierarchy,
			State: types.SpecStatePassed, ReportEntries: types.ReportEntries{entry(MeasuredEntryName, "1.000 (40 of 40)")}},
		{LeafNodeType: types.NodeTypeIt, LeafNodeText: "complete: error rate <= 0.010", LeafNodeLocation: at(15), ContainerHierarchyTexts: hierarchy,
			State: types.SpecStateFailed, Failure: types.Failure{Message: "c.yaml:15: complete: error rate <= 0.010\nExpected …"}},
		{LeafNodeType: types.NodeTypeIt, LeafNodeText: "p99 TTFT <= 500 ms", LeafNodeLocation: at(13), ContainerHierarchyTexts: hierarchy,
			State: types.SpecStateSkipped, Failure: types.Failure{Message: "unjudged: p99 TTFT needs at least 500 observations"}},
		{LeafNodeType: types.NodeTypeIt, LeafNodeText: "target (informational): attainment >= 0.990", LeafNodeLocation: at(18), ContainerHierarchyTexts: hierarchy,
			State: types.SpecStatePassed, ReportEntries: types.ReportEntries{entry(InformationalEntryName, "Expected attainment 0.975 to be at least 0.990")}},
	}}
	got := StepSummary(r)
	for _, want := range []string{
		"### contracts: fail\n\n| objective | where | measured | bound | verdict |\n",
		"| attainment | c.yaml:12, constant 40 requests at 20 req/s | 1.000 (40 of 40) | >= 0.950 | pass |\n",
		"| complete: error rate | c.yaml:15, constant 40 requests at 20 req/s | – | <= 0.010 | **fail** |\n",
		"| p99 TTFT | c.yaml:13, constant 40 requests at 20 req/s | no value: p99 TTFT needs at least 500 observations | <= 500 ms | unjudged |\n",
		"| target (informational): attainment | c.yaml:18, constant 40 requests at 20 req/s | – | >= 0.990 | informational |\n",
		"<details><summary>complete: error rate &lt;= 0.010</summary>",
		"Expected attainment 0.975 to be at least 0.990\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("summary has no %q:\n%s", want, got)
		}
	}
}

func TestSplitObjectiveName(t *testing.T) {
	for name, want := range map[string][2]string{
		"p99 TTFT <= 500 ms":            {"p99 TTFT", "<= 500 ms"},
		"attainment >= 0.950":           {"attainment", ">= 0.950"},
		"complete: error rate <= 0.010": {"complete: error rate", "<= 0.010"},
		"valid load":                    {"valid load", ""},
	} {
		if o, b := splitObjectiveName(name); o != want[0] || b != want[1] {
			t.Errorf("splitObjectiveName(%q) = %q, %q; want %q", name, o, b, want)
		}
	}
}
