package matchers_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/servebench/servebench/matchers"
	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/servebench/report"
	"github.com/servebench/servebench/servebench/schedule"
)

var _ = Describe("BeValidLoad", func() {
	It("passes when every request was sent within the lag tolerance", func() {
		Expect(sixRequests()).To(matchers.BeValidLoad())
		Expect(matchers.BeValidLoad().NegatedFailureMessage(sixRequests())).To(Equal(
			"Expected the load not to be delivered, but all 6 offered requests were sent within the 20 ms schedule lag tolerance (max schedule lag 15 ms)"))
	})

	It("fails on unsent and late requests and lists them, unsent first, then by lag", func() {
		m := matchers.BeValidLoad()
		Expect(undelivered()).NotTo(m)
		Expect(m.FailureMessage(undelivered())).To(Equal(`Expected the load to be delivered (all 6 offered requests sent, schedule lag at most 20 ms), but 1 was never sent and 1 was sent late (max schedule lag 50 ms)
invalid: 1 request not sent
invalid: 1 request sent more than 20 ms after its scheduled time
latest requests:
    r06 not_sent: scheduled 1500 ms, never sent; failed status; error "run cancelled before send"
    r04 success: scheduled 750 ms, sent 800 ms (lag 50 ms), TTFT 350 ms, TPOT 60 ms, E2E 800 ms; failed ttft`))
	})

	It("reports a saturated generator", func() {
		r := undelivered()
		r.Generator = &report.GeneratorReport{Mode: schedule.ModeOpen, Saturated: true, Notes: []string{"p99 goroutine scheduling latency 12 ms"}}
		Expect(matchers.BeValidLoad().FailureMessage(r)).To(ContainSubstring(
			"\nthe load generator was saturated\ngenerator: p99 goroutine scheduling latency 12 ms\nlatest requests:"))
	})

	It("trusts an invalid verdict whatever its reason", func() {
		r := sixRequests()
		r.Valid = false
		r.InvalidReasons = []string{"outstanding requests grew over the window"}
		Expect(r).NotTo(matchers.BeValidLoad())
		Expect(matchers.BeValidLoad().FailureMessage(r)).To(Equal(`Expected the load to be delivered (all 6 offered requests sent, schedule lag at most 20 ms), but 0 were never sent and 0 were sent late (max schedule lag 15 ms)
invalid: outstanding requests grew over the window`))
	})

	It("rejects a report with no offered requests and other types", func() {
		_, err := matchers.BeValidLoad().Match(&report.Report{})
		Expect(err).To(MatchError(ContainSubstring("BeValidLoad cannot judge a report with no offered requests")))
		_, err = matchers.BeValidLoad().Match([]record.Outcome{})
		Expect(err).To(MatchError(ContainSubstring("BeValidLoad expects a *report.Report")))
	})
})
