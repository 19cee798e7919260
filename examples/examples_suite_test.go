package examples_test

import (
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// TestExamples runs the Go specs of this package. The YAML contracts run in
// package contracts beside it, so that this spec links only what its own
// imports need.
func TestExamples(t *testing.T) {
	RegisterFailHandler(Fail)
	RunSpecs(t, "Examples Suite")
}
