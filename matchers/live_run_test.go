package matchers_test

import (
	"context"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/servebench/servebench/fixtures/simengine"
	"github.com/servebench/servebench/matchers"
	"github.com/servebench/servebench/servebench"
	"github.com/servebench/servebench/servebench/openai"
	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/servebench/schedule"
)

// startLive starts 40 requests at 20 req/s (a two-second arrival window)
// against a simulated engine that fails the given fraction of requests.
func startLive(errorRate float64) *servebench.LiveRun {
	cfg := simengine.DefaultConfig()
	cfg.TimeScale, cfg.ErrorRate = 0.1, errorRate
	srv, err := simengine.Start(context.Background(), cfg)
	Expect(err).NotTo(HaveOccurred())
	DeferCleanup(srv.Close)
	w, err := schedule.ParseWorkload("live.jsonl", []byte(`{"prompt":"is it up","max_tokens":4,"ignore_eos":true}`))
	Expect(err).NotTo(HaveOccurred())
	a, err := schedule.NewArrival(schedule.ArrivalSpec{Process: "constant", RateRPS: 20})
	Expect(err).NotTo(HaveOccurred())
	live, err := servebench.Start(context.Background(), servebench.RunConfig{
		Workload: w, Arrival: a, Count: 40, OutputDir: GinkgoT().TempDir(),
		Client: &openai.Client{BaseURL: srv.BaseURL(), Model: cfg.Model, Endpoint: record.EndpointCompletions,
			TotalTimeout: 10 * time.Second},
	})
	Expect(err).NotTo(HaveOccurred())
	DeferCleanup(func() { _, _ = live.Wait() })
	return live
}

var _ = Describe("matchers on a live run", func() {
	It("lets Eventually pass once the qualified requests so far reach the target", func() {
		live := startLive(0)
		Eventually(live).WithTimeout(20 * time.Second).WithPolling(50 * time.Millisecond).
			Should(matchers.HaveAttainmentAtLeast(0.5))
		// A pass is final: pending requests only ever add qualified ones.
		res, err := live.Wait()
		Expect(err).NotTo(HaveOccurred())
		Expect(res.Report).To(matchers.HaveAttainmentAtLeast(0.5))
	})

	It("stops polling as soon as the target is out of reach, long before the run ends", func() {
		live := startLive(1) // every request fails with HTTP 500
		var message string
		g := NewGomega(func(m string, _ ...int) { message = m })
		g.Eventually(live).WithTimeout(20 * time.Second).WithPolling(20 * time.Millisecond).
			Should(matchers.HaveAttainmentAtLeast(0.9))
		// 0.9 of 40 needs 36 qualified: the fifth failure (at about 200 ms of a
		// 2 s window) makes it unreachable. The run is still going (its own
		// state, not the wall clock, says so) and most of it is still to come.
		Expect(live.Finished()).To(BeFalse())
		Expect(message).To(ContainSubstring("attainment cannot reach 0.900 any more: even if all"))
	})

	It("does the same for the Wilson bound", func() {
		live := startLive(1)
		var message string
		g := NewGomega(func(m string, _ ...int) { message = m })
		g.Eventually(live).WithTimeout(20 * time.Second).WithPolling(20 * time.Millisecond).
			Should(matchers.HaveWilsonLowerBoundAbove(0.8))
		Expect(message).To(ContainSubstring("95% Wilson lower bound cannot reach 0.800 any more"))
	})

	It("refuses a live run where a verdict could still move either way", func() {
		live := startLive(0)
		ok, err := matchers.HaveLatencyPercentileBelow(record.MetricTTFT, 99, time.Second).Match(live)
		Expect(ok).To(BeFalse())
		Expect(err).To(MatchError(ContainSubstring("needs a finished run: pass the result of the live run's Wait")))
	})
})
