package matchers_test

import (
	"github.com/servebench/servebench/matchers"
	"github.com/servebench/servebench/servebench/report"
)

func ExampleHaveEnergyPerOutputTokenBelow() {
	// The GPUs spent 12 J while the three requests of scored() produced
	// two tokens each, two of them qualified: 2 J per output token, 6 J
	// per qualified request.
	r := scored()
	r.GPUTelemetry = &report.GPUTelemetry{Status: "sampled", Source: "nvml",
		GPUs:    []report.GPUStats{{Index: 0, Name: "NVIDIA H200", Samples: 4, EnergyJ: ptr(12), EnergyMethod: "counter"}},
		EnergyJ: ptr(12), EnergyMethod: "counter", Qualified: 2, OutputTokens: 6,
		JoulesPerQualifiedRequest: ptr(6), JoulesPerOutputToken: ptr(2)}
	g := printFailures()
	g.Expect(r).To(matchers.HaveEnergyPerQualifiedRequestBelow(10)) // 6 J: passes
	g.Expect(r).To(matchers.HaveEnergyPerOutputTokenBelow(1.5))
	// Output:
	// Expected energy per output token 2 J (12 J over 6 output tokens, counter) to be below 1.5 J
	// from nvml: GPU 0 NVIDIA H200: 12 J (counter), power n/a, 4 samples
	// unqualified requests by failed criterion (a request can fail several): ttft 1
	// terminal statuses: success 3
	// SLO: TTFT <= 300 ms (from sent)
}
