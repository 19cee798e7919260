package matchers_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/servebench/servebench/matchers"
	"github.com/servebench/servebench/servebench/report"
)

// tenantsReport has tenants a (10 of 10 qualified) and b (5 of 10), and 4
// requests without a tenant, with the index the scorer gives them:
// (1 + 0.5)² / (2 × 1.25) = 0.9.
func tenantsReport() *report.Report {
	one, half, none, j := 1.0, 0.5, 0.25, 0.9
	return &report.Report{Offered: 24, Breakdown: map[string]*report.BreakdownDimension{"tenant": {
		Values: map[string]report.BreakdownValue{
			"a":                  {Offered: 10, Qualified: 10, Attainment: &one},
			"b":                  {Offered: 10, Qualified: 5, Attainment: &half},
			report.BreakdownNone: {Offered: 4, Qualified: 1, Attainment: &none},
		},
		Jain: &j,
	}}}
}

var _ = Describe("HaveJainIndexAtLeast", func() {
	It("passes when the index reaches the bound, equality included", func() {
		Expect(tenantsReport()).To(matchers.HaveJainIndexAtLeast("tenant", 0.9))
		Expect(tenantsReport()).NotTo(matchers.HaveJainIndexAtLeast("tenant", 0.901))
	})

	It("gives each tenant's attainment on failure, the requests without one left out", func() {
		Expect(matchers.HaveJainIndexAtLeast("tenant", 0.95).FailureMessage(tenantsReport())).To(Equal(
			"Expected Jain's index over tenant 0.900 (attainment a 1.000 (10 of 10), b 0.500 (5 of 10)) to be at least 0.950"))
		m := matchers.HaveJainIndexAtLeast("tenant", 0.9)
		Expect(m.(interface{ Measured(any) (string, error) }).Measured(tenantsReport())).To(Equal("0.900 over 2 values"))
		Expect(m.(interface{ String() string }).String()).To(Equal("Jain's index over tenant >= 0.900"))
	})

	DescribeTable("rejects what it cannot judge",
		func(dimension string, bound float64, actual any, wantErr string) {
			ok, err := matchers.HaveJainIndexAtLeast(dimension, bound).Match(actual)
			Expect(ok).To(BeFalse())
			Expect(err).To(MatchError(wantErr))
		},
		Entry("a bound above 1", "tenant", 1.1, tenantsReport(),
			"HaveJainIndexAtLeast needs a Jain's index bound in [0, 1], got 1.1"),
		Entry("a dimension the report lacks", "backend", 0.9, tenantsReport(),
			"HaveJainIndexAtLeast: the report has no breakdown by backend (it has: tenant; a dimension no request carried is left out)"),
		Entry("an undefined index", "tenant", 0.9, &report.Report{Offered: 3, Breakdown: map[string]*report.BreakdownDimension{
			"tenant": {Values: map[string]report.BreakdownValue{"a": {Offered: 3}}}}},
			"HaveJainIndexAtLeast: Jain's index over tenant is undefined: it needs two values or more with some attainment (values: a)"),
	)
})
