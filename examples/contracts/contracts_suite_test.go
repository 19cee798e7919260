package contracts_test

import (
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/servebench/servebench/suites"
)

// TestContracts registers one spec per objective of every contract in this
// directory and runs them.
func TestContracts(t *testing.T) {
	RegisterFailHandler(Fail)
	contracts, err := suites.LoadDir(".")
	if err != nil {
		t.Fatal(err)
	}
	suites.SharedEngine(contracts...)
	Describe("SLO contracts", func() { suites.Register(contracts...) })
	RunSpecs(t, "Example Contracts Suite")
}
