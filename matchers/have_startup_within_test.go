package matchers_test

import (
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/servebench/servebench/matchers"
	"github.com/servebench/servebench/servebench/report"
)

// withStarts is sixRequests with two engine starts: ready after 80 and
// 120 ms, first token after 95 ms and never.
func withStarts() *report.Report {
	r := sixRequests()
	r.EngineStarts = []report.EngineStart{{ReadyMS: f(80), FirstTokenMS: f(95)}, {ReadyMS: f(120)}}
	return r
}

var _ = Describe("HaveStartupWithin", func() {
	It("judges every start against both bounds", func() {
		Expect(withStarts()).To(matchers.HaveStartupWithin(120*time.Millisecond, 0))
		Expect(withStarts()).NotTo(matchers.HaveStartupWithin(119*time.Millisecond, 0))
		Expect(withStarts()).NotTo(matchers.HaveStartupWithin(0, time.Second)) // the second start gave no token
		r := withStarts()
		r.EngineStarts = r.EngineStarts[:1]
		Expect(r).To(matchers.HaveStartupWithin(80*time.Millisecond, 95*time.Millisecond))
	})

	It("lists each start that missed", func() {
		Expect(matchers.HaveStartupWithin(100*time.Millisecond, 90*time.Millisecond).FailureMessage(withStarts())).To(Equal(
			"Expected each of the 2 engine starts: ready within 100ms, first token within 90ms\n" +
				"start 1: first token after 95.0 ms, bound 90ms\n" +
				"start 2: ready after 120.0 ms, bound 100ms\n" +
				"start 2: first token after (none measured), bound 90ms"))
		Expect(matchers.HaveStartupWithin(2*time.Minute, 150*time.Second).(interface{ String() string }).String()).To(Equal(
			"engine ready within 2m0s, first token within 2m30s"))
	})

	It("refuses a report without starts and a matcher without bounds", func() {
		_, err := matchers.HaveStartupWithin(time.Second, 0).Match(sixRequests())
		Expect(err).To(MatchError(ContainSubstring("no engine_starts (servebench did not start the engine)")))
		_, err = matchers.HaveStartupWithin(0, 0).Match(withStarts())
		Expect(err).To(MatchError(ContainSubstring("give a positive ready or first-token bound")))
	})
})
