package examples_test

import (
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/servebench/servebench/fixtures/simengine"
	"github.com/servebench/servebench/matchers"
	"github.com/servebench/servebench/servebench"
)

// One run of a short Poisson load against the simulated engine, judged
// objective by objective. The run happens once, in BeforeAll; each It
// asserts one objective on its result, so a failure names the objective.
var _ = Describe("the simulated engine under a light chat load", Ordered, Serial, Label("engine:simengine"), func() {
	var result *servebench.RunResult

	BeforeAll(func(ctx SpecContext) {
		cfg := simengine.DefaultConfig()
		cfg.TimeScale = 0.1 // the cost model, ten times faster
		engine, err := simengine.Start(ctx, cfg)
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(engine.Close)

		workload, err := servebench.LoadWorkload("workloads/chat.jsonl")
		Expect(err).NotTo(HaveOccurred())
		client := servebench.NewClient(engine.BaseURL(), cfg.Model)
		client.FirstTokenTimeout = 5 * time.Second

		result, err = servebench.Run(ctx, servebench.RunConfig{
			Workload:     workload,
			Arrival:      servebench.Poisson(20, 1), // 20 requests per second, seed 1
			Count:        60,
			Warmup:       3,
			Client:       client,
			LagTolerance: 2 * time.Second, // generous for shared CI machines; 20 ms is the default
			Score:        servebench.Scoring{SLO: servebench.SLO{TTFT: time.Second, E2E: 5 * time.Second}},
			OutputDir:    GinkgoT().TempDir(),
		})
		Expect(err).NotTo(HaveOccurred())
		AddReportEntry("servebench run", result)
	}, NodeTimeout(2*time.Minute))

	It("sends every scheduled request, on time", func() {
		Expect(result).To(matchers.HaveNoLostRequests())
		Expect(result).To(matchers.BeValidLoad())
	})

	It("qualifies at least 95 % of the offered requests", func() {
		Expect(result).To(matchers.HaveAttainmentAtLeast(0.95))
	})

	It("supports 90 % with 95 % confidence", func() {
		Expect(result).To(matchers.HaveWilsonLowerBoundAbove(0.90))
	})

	It("answers within a second at p99", func() {
		Expect(result).To(matchers.HaveLatencyPercentileBelow(servebench.TTFT, 99, time.Second))
	})

	It("meets every objective at once, listing all violations if not", func() {
		Expect(result).To(matchers.MeetSLOs(
			matchers.HaveErrorRateBelow(0.01),
			matchers.HaveLatencyPercentileBelow(servebench.E2E, 90, 2*time.Second),
			matchers.HaveQualifiedRateAtLeast(10),
		))
	})
})
