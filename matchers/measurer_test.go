package matchers_test

import (
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"github.com/onsi/gomega/types"

	"github.com/servebench/servebench/matchers"
	"github.com/servebench/servebench/servebench/capacity"
	"github.com/servebench/servebench/servebench/record"
)

var _ = Describe("Measurer", func() {
	measured := func(m types.GomegaMatcher, actual any) string {
		GinkgoHelper()
		ms, ok := m.(matchers.Measurer)
		Expect(ok).To(BeTrue(), "%T is not a Measurer", m)
		s, err := ms.Measured(actual)
		Expect(err).NotTo(HaveOccurred())
		return s
	}

	It("states the value each matcher judges, whether it passes or not", func() {
		// sixRequests: 3 of 6 qualified, 1 of 6 failed, TTFTs of the five
		// successes 240, 180, 200, 350 and 220 ms, horizon 2.5 s.
		r := sixRequests()
		Expect(measured(matchers.HaveAttainmentAtLeast(0.95), r)).To(Equal("0.500 (3 of 6)"))
		Expect(measured(matchers.HaveWilsonLowerBoundAbove(0.9), r)).To(Equal("0.221 (attainment 0.500)"))
		Expect(measured(matchers.HaveLatencyPercentileBelow(record.MetricTTFT, 99, time.Second), withTTFTSummary(r))).To(Equal("350 ms (n = 5)"))
		Expect(measured(matchers.HaveErrorRateBelow(0.01), r)).To(Equal("0.167 (1 of 6)"))
		Expect(measured(matchers.HaveQualifiedRateAtLeast(1), r)).To(Equal("1.200 req/s"))
		Expect(measured(matchers.BeValidLoad(), r)).To(Equal("6 of 6 sent, 0 late"))
		Expect(measured(matchers.HaveCapacityAtLeast(3), sweep(capacity.Rule{MinAttainment: 0.95}))).To(Equal("2.000 req/s"))
	})

	It("returns the error Match returns", func() {
		_, err := matchers.HaveAttainmentAtLeast(0.9).(matchers.Measurer).Measured(42)
		_, matchErr := matchers.HaveAttainmentAtLeast(0.9).Match(42)
		Expect(err).To(HaveOccurred())
		Expect(err).To(MatchError(matchErr.Error()))
	})
})
