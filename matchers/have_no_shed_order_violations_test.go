package matchers_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/servebench/servebench/matchers"
	"github.com/servebench/servebench/servebench/report"
)

func shedReport(violations int) *report.Report {
	s := &report.ShedOrder{Critical: []string{"critical"}, WindowMS: 1000, Windows: 4, Violations: violations,
		CriticalSent: 20, CriticalRejected: 2, SheddableSent: 20, SheddableRejected: 9}
	if violations > 0 {
		s.FirstViolationMS = new(2000.0)
	}
	return &report.Report{Offered: 40, ShedOrder: s}
}

var _ = Describe("HaveNoShedOrderViolations", func() {
	It("passes with no violating window and fails with one, naming it", func() {
		Expect(shedReport(0)).To(matchers.HaveNoShedOrderViolations())
		Expect(shedReport(1)).NotTo(matchers.HaveNoShedOrderViolations())
		Expect(matchers.HaveNoShedOrderViolations().FailureMessage(shedReport(1))).To(Equal(
			"Expected shed-order violations 1 of 4 windows, the first at 2000 ms (critical critical: 2 of 20 rejected; sheddable: 9 of 20 rejected) to be 0"))
	})

	It("refuses a report it cannot judge", func() {
		_, err := matchers.HaveNoShedOrderViolations().Match(&report.Report{Offered: 3})
		Expect(err).To(MatchError("HaveNoShedOrderViolations: the report has no shed_order: declare the critical objectives (--critical-objectives, objectives.shed_order.critical)"))
		_, err = matchers.HaveNoShedOrderViolations().Match(&report.Report{Offered: 3, ShedOrder: &report.ShedOrder{Critical: []string{"a"}, WindowMS: 1000, CriticalSent: 3}})
		Expect(err).To(MatchError("HaveNoShedOrderViolations: no 1000 ms window held both a critical (a) and a sheddable request: nothing to judge (3 critical and 0 sheddable sent)"))
	})
})
