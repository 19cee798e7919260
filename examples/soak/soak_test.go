// Package soak_test holds the soak contract: a long steady load judged on
// drift. It runs only when SERVEBENCH_SOAK is set, so `go test ./...` and
// CI skip it (Ginkgo labels exclude nothing by themselves; the environment
// guard does).
package soak_test

import (
	"os"
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/servebench/servebench/suites"
)

// EnvSoak turns the soak run on.
const EnvSoak = "SERVEBENCH_SOAK"

// TestSoakContractParses keeps the soak contract valid without running it.
func TestSoakContractParses(t *testing.T) {
	contracts, err := suites.LoadDir("contracts")
	if err != nil {
		t.Fatal(err)
	}
	if len(contracts) != 1 || contracts[0].Objectives.Drift == nil || *contracts[0].Objectives.Drift != 0.2 {
		t.Fatalf("soak contracts: %+v", contracts)
	}
}

// TestSoak runs the soak contract against the simulated engine (ten
// minutes) when SERVEBENCH_SOAK is set.
func TestSoak(t *testing.T) {
	if os.Getenv(EnvSoak) == "" {
		t.Skip("soak: a ten-minute run; set " + EnvSoak + "=1 to run it")
	}
	RegisterFailHandler(Fail)
	contracts, err := suites.LoadDir("contracts")
	if err != nil {
		t.Fatal(err)
	}
	suites.SharedEngine(contracts...)
	Describe("soak contracts", func() { suites.Register(contracts...) })
	RunSpecs(t, "Soak Suite")
}
