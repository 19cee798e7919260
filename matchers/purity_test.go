package matchers_test

import (
	"sync"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"github.com/onsi/gomega/types"

	"github.com/servebench/servebench/matchers"
)

var _ = Describe("every matcher", func() {
	It("gives the same verdict and message however often and concurrently it is asked", func() {
		report := sixRequests()
		all := []types.GomegaMatcher{
			matchers.HaveAttainmentAtLeast(0.95),
			matchers.HaveWilsonLowerBoundAbove(0.5),
			matchers.HaveErrorRateBelow(0.01),
			matchers.HaveQualifiedRateAtLeast(2),
			matchers.BeValidLoad(),
			matchers.HaveNoLostRequests(),
			matchers.MeetSLOs(matchers.HaveAttainmentAtLeast(0.9), matchers.BeValidLoad()),
		}
		for _, m := range all {
			want, err := m.Match(report)
			Expect(err).NotTo(HaveOccurred())
			wantMsg, wantNeg := m.FailureMessage(report), m.NegatedFailureMessage(report)
			var wg sync.WaitGroup
			for range 8 {
				wg.Add(1)
				go func() {
					defer GinkgoRecover()
					defer wg.Done()
					for range 20 {
						// Interleave a different actual to catch state kept
						// between Match and the message methods.
						_, _ = m.Match(cohort(1, 2))
						got, err := m.Match(report)
						Expect(err).NotTo(HaveOccurred())
						Expect(got).To(Equal(want))
						Expect(m.FailureMessage(report)).To(Equal(wantMsg))
						Expect(m.NegatedFailureMessage(report)).To(Equal(wantNeg))
					}
				}()
			}
			wg.Wait()
		}
	})
})
