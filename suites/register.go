package suites

import (
	"fmt"
	"sync"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/servebench/servebench/servebench"
)

// loadGracePeriod is how long a load point may take to wind down after its
// NodeTimeout: the runner then ends every request with a terminal record.
const loadGracePeriod = 30 * time.Second

// Register turns contracts into Ginkgo specs. Call it inside a top-level
// Describe (it runs at tree construction):
//
//	var _ = Describe("SLO contracts", func() {
//		suites.Register(contracts...)
//	})
//
// Each contract becomes one Ordered, ContinueOnFailure, Serial container
// labelled with AllLabels. Inside it, each load point is a container whose
// BeforeAll runs the load (bounded by NodeTimeout(RunBudget)), attaches a
// RunEntry with AddReportEntry and keeps the run directory, and whose specs
// are one It per objective, so a report names each objective that failed
// and at which load. A sweep with a capacity objective ends with one more
// It for the capacity. The engine comes from SharedEngine when it was
// called, else it is started in the contract container's BeforeAll and
// stopped when the container ends.
func Register(contracts ...*Contract) {
	for _, c := range contracts {
		register(c)
	}
}

// register builds one contract's container.
func register(c *Contract) {
	Describe(c.Name, Label(c.AllLabels()...), Ordered, ContinueOnFailure, Serial, c.Location("name"), func() {
		var target Target
		BeforeAll(func(ctx SpecContext) {
			target = acquireTarget(ctx, c)
		}, NodeTimeout(c.startupBudget()+time.Minute))
		if c.Baseline != nil {
			registerBaseline(c, &target)
			return
		}

		var mu sync.Mutex
		var sweep []servebench.SweepPoint
		for _, p := range c.Points() {
			Describe(p.Name, c.Location("arrival.rates", "arrival.rate", "arrival"), func() {
				var result *servebench.RunResult
				BeforeAll(func(ctx SpecContext) {
					GinkgoWriter.Printf("servebench: running %s, %s against %s\n", c.Name, p.Name, target.BaseURL)
					res, err := c.RunPoint(ctx, p, target, nil)
					if res != nil && res.Report != nil {
						AddReportEntry(ReportEntryName, &RunEntry{Contract: c.Name, LoadPoint: p.Name, Dir: res.Dir, Report: res.Report},
							ReportEntryVisibilityAlways, c.Location("arrival.rates", "arrival.rate", "arrival"))
						mu.Lock()
						sweep = append(sweep, servebench.SweepPoint{OfferedRPS: p.RateRPS, Report: res.Report})
						mu.Unlock()
					}
					Expect(err).NotTo(HaveOccurred(), "the load point did not complete")
					result = res
				}, NodeTimeout(c.RunBudget(p)), GracePeriod(loadGracePeriod))

				for _, o := range c.PointObjectives(p) {
					It(o.Name, c.Location(o.Field, "objectives"), func() {
						Expect(result).To(o.Matcher)
					})
				}
			})
		}

		if o, rule, ok := c.CapacityObjective(); ok {
			It(o.Name, c.Location(o.Field), func() {
				mu.Lock()
				points := append([]servebench.SweepPoint(nil), sweep...)
				mu.Unlock()
				Expect(points).To(HaveLen(len(c.Points())),
					fmt.Sprintf("only %d of the %d load points produced a report", len(points), len(c.Points())))
				Expect(servebench.NewSweep(points, rule)).To(o.Matcher)
			})
		}
	})
}
