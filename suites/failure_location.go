package suites

import (
	"fmt"
	"sync"

	"github.com/onsi/ginkgo/v2/reporters"
	"github.com/onsi/ginkgo/v2/types"
)

// contractFiles holds the path of every registered contract, so that a
// report's failures can be traced back to the contract that declared them.
var contractFiles sync.Map

// failureHeading is the first line of a failure message: the contract
// line that declared what failed, and its name, as file:line: what.
func failureHeading(loc types.CodeLocation, what string) string {
	return fmt.Sprintf("%s:%d: %s", loc.FileName, loc.LineNumber, what)
}

// AtContractLines returns a copy of report in which each failure raised by
// a contract's spec is located at the contract line that declared it
// instead of the Go code that checked it: the objective's line for an
// objective's spec, the load point's line for a load point that did not
// complete. Ginkgo takes a failure's location from the Go stack, which for
// a contract is always this package; a JUnit or JSON report written from
// the copy points a reader at the contract.
func AtContractLines(report types.Report) types.Report {
	specs := make(types.SpecReports, len(report.SpecReports))
	copy(specs, report.SpecReports)
	for i, spec := range specs {
		if spec.Failure.IsZero() {
			continue
		}
		loc, ok := contractLocation(spec)
		if !ok {
			continue
		}
		f := spec.Failure
		f.Location = loc
		if f.FailureNodeType == types.NodeTypeIt || f.FailureNodeLocation.FileName == "" {
			f.FailureNodeLocation = loc
		} else if l, ok := containerContractLocation(spec); ok {
			f.FailureNodeLocation = l
		}
		spec.Failure = f
		specs[i] = spec
	}
	report.SpecReports = specs
	return report
}

// contractLocation is the contract line of a failed spec: its own line
// when it failed in its It, else the innermost contract container's line
// (the load point whose BeforeAll failed).
func contractLocation(spec types.SpecReport) (types.CodeLocation, bool) {
	if _, ok := contractFiles.Load(spec.LeafNodeLocation.FileName); !ok {
		return types.CodeLocation{}, false
	}
	if spec.Failure.FailureNodeType == types.NodeTypeIt {
		return spec.LeafNodeLocation, true
	}
	if l, ok := containerContractLocation(spec); ok {
		return l, true
	}
	return spec.LeafNodeLocation, true
}

// containerContractLocation is the innermost container of spec that a
// contract declared.
func containerContractLocation(spec types.SpecReport) (types.CodeLocation, bool) {
	for i := len(spec.ContainerHierarchyLocations) - 1; i >= 0; i-- {
		l := spec.ContainerHierarchyLocations[i]
		if _, ok := contractFiles.Load(l.FileName); ok {
			return l, true
		}
	}
	return types.CodeLocation{}, false
}

// WriteJUnitReport writes report as JUnit XML to path with every contract
// failure located at its contract line (see AtContractLines). Call it from
// a ReportAfterSuite:
//
//	var _ = ReportAfterSuite("contracts as JUnit", func(r Report) {
//		Expect(suites.WriteJUnitReport(r, "junit.xml")).To(Succeed())
//	})
func WriteJUnitReport(report types.Report, path string) error {
	return reporters.GenerateJUnitReport(AtContractLines(report), path)
}
