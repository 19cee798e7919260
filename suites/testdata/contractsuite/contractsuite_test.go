// Package contractsuite is a small Ginkgo suite that runs one SLO contract,
// named by the SUITE_CONTRACT environment variable, against the simulated
// engine. The suites package's tests build it and run it in a subprocess.
package contractsuite_test

import (
	"context"
	"fmt"
	"os"
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/servebench/servebench/suites"
)

func TestContract(t *testing.T) {
	RegisterFailHandler(Fail)
	// An engine kind that can never run here, for unavailable.yaml.
	suites.RegisterEngine("absent", func(context.Context, suites.EngineSpec) (suites.Engine, error) {
		return nil, fmt.Errorf("%w: the absent engine exists nowhere", suites.ErrEngineUnavailable)
	})
	path := os.Getenv("SUITE_CONTRACT")
	if path == "" {
		t.Fatal("set SUITE_CONTRACT to the contract file to run")
	}
	contract, err := suites.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	suites.SharedEngine(contract)
	Describe("contract", func() { suites.Register(contract) })
	if junit := os.Getenv("SUITE_JUNIT"); junit != "" {
		ReportAfterSuite("contract as JUnit", func(r Report) {
			Expect(suites.WriteJUnitReport(r, junit)).To(Succeed())
		})
	}
	RunSpecs(t, "Contract Suite")
}
