package suites

import (
	"testing"

	"github.com/onsi/ginkgo/v2/types"
)

func TestAtContractLinesMovesContractFailuresToTheirLines(t *testing.T) {
	contractFiles.Store("at-lines.yaml", true)
	goLoc := func(line int) types.CodeLocation {
		return types.CodeLocation{FileName: "/src/suites/register.go", LineNumber: line, FullStackTrace: "stack"}
	}
	yaml := func(line int) types.CodeLocation {
		return types.CodeLocation{FileName: "at-lines.yaml", LineNumber: line}
	}
	containers := []types.CodeLocation{goLoc(1), yaml(3), yaml(13)}
	report := types.Report{SpecReports: types.SpecReports{
		// An objective's It failed: its own line.
		{LeafNodeType: types.NodeTypeIt, LeafNodeLocation: yaml(24), ContainerHierarchyLocations: containers, State: types.SpecStateFailed,
			Failure: types.Failure{Message: "m", Location: goLoc(71), FailureNodeType: types.NodeTypeIt, FailureNodeLocation: yaml(24)}},
		// The load point's BeforeAll failed: the load point's line.
		{LeafNodeType: types.NodeTypeIt, LeafNodeLocation: yaml(23), ContainerHierarchyLocations: containers, State: types.SpecStateFailed,
			Failure: types.Failure{Message: "m", Location: goLoc(60), FailureNodeType: types.NodeTypeBeforeAll, FailureNodeLocation: goLoc(55)}},
		// A spec of Go code is left alone.
		{LeafNodeType: types.NodeTypeIt, LeafNodeLocation: goLoc(9), State: types.SpecStateFailed,
			Failure: types.Failure{Message: "m", Location: goLoc(10), FailureNodeType: types.NodeTypeIt, FailureNodeLocation: goLoc(9)}},
		// A passed spec has nothing to move.
		{LeafNodeType: types.NodeTypeIt, LeafNodeLocation: yaml(26), State: types.SpecStatePassed},
	}}
	got := AtContractLines(report)
	for i, want := range []struct{ loc, node types.CodeLocation }{
		{yaml(24), yaml(24)},
		{yaml(13), yaml(13)},
		{goLoc(10), goLoc(9)},
		{types.CodeLocation{}, types.CodeLocation{}},
	} {
		f := got.SpecReports[i].Failure
		if f.Location != want.loc || f.FailureNodeLocation != want.node {
			t.Errorf("spec %d: failure at %v (node %v), want %v (node %v)", i, f.Location, f.FailureNodeLocation, want.loc, want.node)
		}
	}
	if report.SpecReports[0].Failure.Location != goLoc(71) {
		t.Error("the original report was changed")
	}
}
