// Package examples is a servebench suite to copy: slo_test.go asserts SLOs
// on a run with Gomega matchers, and contracts/ holds a YAML contract that
// examples_suite_test.go turns into specs. Both run against the simulated
// engine in-process, so `go test ./examples/...` needs no GPU, no Docker and
// no network beyond loopback.
package examples
