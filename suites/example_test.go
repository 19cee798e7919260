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
	// broken.yaml:10:3: objectives.latency: unknown field (known: attainment, breakdown, capacity, concurrency, confidence, drift, error_rate, fairness, joules_per_output_token, joules_per_qualified_request, percentiles, prefix_cache_hit_rate, prefix_reuse_achieved, qualified_rate, sessions, speculative_decoding, valid_load, wilson_lower)
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
