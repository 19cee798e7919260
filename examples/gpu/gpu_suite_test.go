package gpu_test

import (
	"testing"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/servebench/servebench/suites"
)

// TestGPUContracts runs the GPU example contracts; their engines ask for
// GPUs, so without one the specs skip with the reason.
func TestGPUContracts(t *testing.T) {
	RegisterFailHandler(Fail)
	contracts, err := suites.LoadDir("contracts")
	if err != nil {
		t.Fatal(err)
	}
	suites.SharedEngine(contracts...)
	Describe("GPU contracts", func() { suites.Register(contracts...) })
	RunSpecs(t, "GPU example contracts")
}
