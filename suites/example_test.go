package suites_test

import (
	"fmt"

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
	// broken.yaml:10:3: objectives.latency: unknown field (known: attainment, capacity, confidence, drift, error_rate, percentiles, qualified_rate, valid_load, wilson_lower)
	// broken.yaml:9:15: objectives.attainment: want a fraction in [0, 1], got 1.5
}
