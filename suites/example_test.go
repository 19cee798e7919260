package suites_test

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/onsi/ginkgo/v2/types"

	"github.com/servebench/servebench/suites"
)

// A contract that names an unknown field and a fraction out of range is
// rejected with every problem at its line.
func ExampleParse() {
	_, err := suites.Parse("broken.yaml", []byte(`name: broken
base_url: http://127.0.0.1:8000
model: m
workload:
  generator: {kind: fixed, count: 10, seed: 1}
arrival: {process: poisson, rate: 4}
count: 20
objectives:
  attainment: 1.5
  latency: fast
`))
	fmt.Println(err)
	// Output:
	// broken.yaml:10:3: objectives.latency: unknown field (known: attainment, breakdown, capacity, concurrency, confidence, drift, error_rate, fairness, joules_per_output_token, joules_per_qualified_request, percentiles, prefix_cache_hit_rate, prefix_reuse_achieved, qualified_rate, recovery_within, sessions, shed_order, speculative_decoding, startup, valid_load, wilson_lower)
	// broken.yaml:9:15: objectives.attainment: want a fraction in [0, 1], got 1.5
}

// A suite writes its JUnit report from a ReportAfterSuite, so that each
// failure of a contract points at the contract line that declared it
// rather than at this package's Go code:
//
//	var _ = ReportAfterSuite("contracts as JUnit", func(r Report) {
//		Expect(suites.WriteJUnitReport(r, "junit.xml")).To(Succeed())
//	})
//
// AtContractLines gives the same rewritten report for any other reporter.
func ExampleWriteJUnitReport() {
	var report types.Report // the suite's report, as ReportAfterSuite receives it
	dir, _ := os.MkdirTemp("", "example-junit-")
	defer os.RemoveAll(dir)
	if err := suites.WriteJUnitReport(report, filepath.Join(dir, "junit.xml")); err != nil {
		fmt.Println(err)
	}
	fmt.Println(len(suites.AtContractLines(report).SpecReports))
	// Output:
	// 0
}

// Tiers beside objectives: the enforced tier (complete) and the one below
// it fail the suite, the one above is informational; each tier's specs are
// named by it.
func ExampleContract_PointObjectives_tiers() {
	c, err := suites.Parse("tiers.yaml", []byte(`name: tiers
base_url: http://127.0.0.1:8000
model: m
workload:
  generator: {kind: fixed, count: 10, seed: 1}
arrival: {process: poisson, rate: 4}
count: 20
objectives:
  valid_load: false
tiers:
  functional: {attainment: 0.85}
  complete: {attainment: 0.95}
  target: {attainment: 0.99}
enforce: complete
unjudged: fail
`))
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, o := range c.PointObjectives(c.Points()[0]) {
		fmt.Printf("%s (%s, informational %v)\n", o.Name, o.Field, o.Informational)
	}
	fmt.Println("enforce:", c.Enforce, "unjudged fails:", c.UnjudgedFail)
	// Output:
	// no lost requests (, informational false)
	// functional: attainment >= 0.850 (tiers.functional.attainment, informational false)
	// complete: attainment >= 0.950 (tiers.complete.attainment, informational false)
	// target (informational): attainment >= 0.990 (tiers.target.attainment, informational true)
	// enforce: complete unjudged fails: true
}

// A suite appends its verdict to the CI job's summary from a
// ReportAfterSuite; StepSummary is the markdown it appends:
//
//	var _ = ReportAfterSuite("contracts in the step summary", func(r Report) {
//		Expect(suites.AppendStepSummary(r, "")).To(Succeed())
//	})
func ExampleStepSummary() {
	report := types.Report{SuiteDescription: "contracts", SuiteSucceeded: true, SpecReports: types.SpecReports{{
		LeafNodeType: types.NodeTypeIt, LeafNodeText: "attainment >= 0.950", State: types.SpecStatePassed,
		LeafNodeLocation:        types.CodeLocation{FileName: "chat.yaml", LineNumber: 12},
		ContainerHierarchyTexts: []string{"contract chat", "poisson 40 requests at 20 req/s"},
	}}}
	fmt.Print(suites.StepSummary(report))
	// Output:
	// ### contracts: pass
	//
	// | objective | where | measured | bound | verdict |
	// | --- | --- | --- | --- | --- |
	// | attainment | chat.yaml:12, poisson 40 requests at 20 req/s | – | >= 0.950 | pass |
}
