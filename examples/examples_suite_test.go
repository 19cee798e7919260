package examples_test

import (
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/servebench/servebench/suites"
)

// TestExamples runs the Go specs of this package and one spec per objective
// of every contract in contracts/.
func TestExamples(t *testing.T) {
	RegisterFailHandler(Fail)
	contracts, err := suites.LoadDir("contracts")
	if err != nil {
		t.Fatal(err)
	}
	suites.SharedEngine(contracts...)
	Describe("SLO contracts", func() { suites.Register(contracts...) })
	RunSpecs(t, "Examples Suite")
}
