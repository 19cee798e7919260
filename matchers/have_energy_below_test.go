package matchers_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/servebench/servebench/matchers"
	"github.com/servebench/servebench/servebench/report"
)

// withEnergy is sixRequests (3 qualified of 6 offered) whose GPUs spent 90
// J over 120 output tokens: 30 J per qualified request, 0.75 J per token.
func withEnergy() *report.Report {
	r := sixRequests()
	r.GPUTelemetry = &report.GPUTelemetry{Status: "sampled", Source: "nvml", SampleIntervalMS: 1000,
		GPUs: []report.GPUStats{{Index: 0, Name: "NVIDIA H200", Samples: 11, PowerW: report.GPUStat{Mean: f(9), Max: f(12)},
			EnergyJ: f(90), EnergyMethod: "counter"}},
		EnergyJ: f(90), EnergyMethod: "counter", Qualified: 3, OutputTokens: 120,
		JoulesPerQualifiedRequest: f(30), JoulesPerOutputToken: f(0.75)}
	return r
}

var _ = Describe("HaveEnergyPerOutputTokenBelow and HaveEnergyPerQualifiedRequestBelow", func() {
	It("pass strictly below the bound", func() {
		Expect(withEnergy()).To(matchers.HaveEnergyPerOutputTokenBelow(0.76))
		Expect(withEnergy()).NotTo(matchers.HaveEnergyPerOutputTokenBelow(0.75))
		Expect(withEnergy()).To(matchers.HaveEnergyPerQualifiedRequestBelow(30.5))
		Expect(withEnergy()).NotTo(matchers.HaveEnergyPerQualifiedRequestBelow(30))
	})

	It("name the energy, its method and the units it bought", func() {
		Expect(matchers.HaveEnergyPerOutputTokenBelow(0.5).FailureMessage(withEnergy())).To(Equal(`Expected energy per output token 0.75 J (90 J over 120 output tokens, counter) to be below 0.5 J
from nvml: GPU 0 NVIDIA H200: 90 J (counter), mean 9.0 W, 11 samples
unqualified requests by failed criterion (a request can fail several): status 1, quality 1, ttft 1
terminal statuses: success 5, timeout 1
SLO: TTFT <= 300 ms (from sent), TPOT <= 80 ms, E2E <= 3000 ms`))
		Expect(matchers.HaveEnergyPerQualifiedRequestBelow(40).NegatedFailureMessage(withEnergy())).To(Equal(`Expected energy per qualified request 30 J (90 J over 3 qualified of 6 offered requests, counter) not to be below 40 J
from nvml: GPU 0 NVIDIA H200: 90 J (counter), mean 9.0 W, 11 samples`))
		Expect(matchers.HaveEnergyPerQualifiedRequestBelow(40)).To(HaveField("String()", "energy per qualified request < 40 J"))
	})

	It("fail when the energy bought no qualified request", func() {
		r := withEnergy()
		r.GPUTelemetry.Qualified, r.GPUTelemetry.JoulesPerQualifiedRequest = 0, nil
		m := matchers.HaveEnergyPerQualifiedRequestBelow(1e9)
		Expect(m.Match(r)).To(BeFalse())
		Expect(m.FailureMessage(r)).To(HavePrefix("Expected energy per qualified request undefined (no qualified request) (90 J over 0 qualified of 6 offered requests"))
	})

	DescribeTable("reject what they cannot judge",
		func(bound float64, tune func(*report.Report), wantErr string) {
			r := withEnergy()
			tune(r)
			ok, err := matchers.HaveEnergyPerOutputTokenBelow(bound).Match(r)
			Expect(ok).To(BeFalse())
			Expect(err).To(MatchError(wantErr))
		},
		Entry("a negative bound", -1.0, func(*report.Report) {},
			"HaveEnergyPerOutputTokenBelow needs a finite, non-negative bound in joules, got -1"),
		Entry("a NaN bound", nan(), func(*report.Report) {},
			"HaveEnergyPerOutputTokenBelow needs a finite, non-negative bound in joules, got NaN"),
		Entry("no telemetry", 1.0, func(r *report.Report) { r.GPUTelemetry = nil },
			"HaveEnergyPerOutputTokenBelow cannot judge a report without GPU telemetry: sample the GPUs (RunConfig.GPUSampler from package servebench/telemetry, or the CLI's --gpu-sample-interval)"),
		Entry("unavailable telemetry", 1.0, func(r *report.Report) {
			r.GPUTelemetry = &report.GPUTelemetry{Status: "unavailable: nvml: libnvidia-ml.so.1 not found"}
		}, "HaveEnergyPerOutputTokenBelow cannot judge this run: GPU telemetry unavailable: nvml: libnvidia-ml.so.1 not found"),
		Entry("unknown energy", 1.0, func(r *report.Report) {
			r.GPUTelemetry.EnergyJ = nil
			r.GPUTelemetry.GPUs[0].EnergyJ = nil
		}, "HaveEnergyPerOutputTokenBelow cannot judge this run: the GPUs' energy is unknown (from nvml: GPU 0 NVIDIA H200: energy unknown, mean 9.0 W, 11 samples)"),
	)
})
