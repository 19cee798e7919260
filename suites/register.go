package suites

import (
	"fmt"
	"sync"
	"time"

	"github.com/servebench/servebench/servebench/capacity"

	"github.com/onsi/ginkgo/v2"
	"github.com/onsi/gomega"

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
// and at which load. Each spec is located at the contract line that
// declared it, and a failure message's first line names that line
// (WriteJUnitReport also moves the failure's own location there). A sweep with a capacity objective ends with one more
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
	contractFiles.Store(c.Path, true)
	ginkgo.Describe(c.Name, ginkgo.Label(c.AllLabels()...), ginkgo.Ordered, ginkgo.ContinueOnFailure, ginkgo.Serial, c.Location("name"), func() {
		if c.Baseline != nil {
			registerBaseline(c)
			return
		}
		var target Target
		ginkgo.BeforeAll(func(ctx ginkgo.SpecContext) {
			target = acquireTarget(ctx, c)
		}, ginkgo.NodeTimeout(c.startupBudget()+time.Minute))
		if c.UserSearch != nil {
			registerUserSearch(c, &target)
			return
		}

		var mu sync.Mutex
		var sweep []capacity.Point
		for _, p := range c.Points() {
			ginkgo.Describe(p.Name, c.Location("arrival.rates", "arrival.rate", "arrival"), func() {
				var result *servebench.RunResult
				ginkgo.BeforeAll(func(ctx ginkgo.SpecContext) {
					ginkgo.GinkgoWriter.Printf("servebench: running %s, %s against %s\n", c.Name, p.Name, target.BaseURL)
					res, err := c.RunPoint(ctx, p, target, nil)
					if res != nil && res.Report != nil {
						ginkgo.AddReportEntry(ReportEntryName, &RunEntry{Contract: c.Name, LoadPoint: p.Name, Dir: res.Dir, Report: res.Report},
							ginkgo.ReportEntryVisibilityAlways, c.Location("arrival.rates", "arrival.rate", "arrival"))
						mu.Lock()
						// A point cut short (interrupted, or past its budget) is
						// marked so that no capacity or knee comes from it.
						sweep = append(sweep, capacity.Point{OfferedRPS: p.RateRPS, RunDir: res.Dir, Report: res.Report,
							Interrupted: err != nil && ctx.Err() != nil})
						mu.Unlock()
					}
					gomega.Expect(err).NotTo(gomega.HaveOccurred(), failureHeading(c.Location("arrival.rates", "arrival.rate", "arrival"), p.Name+": the load point did not complete"))
					result = res
				}, ginkgo.NodeTimeout(c.RunBudget(p)), ginkgo.GracePeriod(loadGracePeriod))

				for _, o := range c.PointObjectives(p) {
					at := c.Location(o.Field, "objectives")
					ginkgo.It(o.Name, at, func() {
						gomega.Expect(result).To(o.Matcher, failureHeading(at, o.Name))
					})
				}
			})
		}

		if c.Arrival.Sweep() {
			// sweep.json and sweep.html join the artifacts and the report
			// once every point ran, whatever their objectives said.
			ginkgo.AfterAll(func() {
				mu.Lock()
				points := append([]capacity.Point(nil), sweep...)
				mu.Unlock()
				if len(points) == 0 {
					return
				}
				entry, err := c.writeSweep(points, time.Now())
				gomega.Expect(err).NotTo(gomega.HaveOccurred(), "keeping sweep.json and sweep.html")
				ginkgo.AddReportEntry(SweepEntryName, entry, ginkgo.ReportEntryVisibilityAlways, c.Location("arrival.rates", "arrival"))
			})
		}

		if o, rule, ok := c.CapacityObjective(); ok {
			at := c.Location(o.Field)
			ginkgo.It(o.Name, at, func() {
				mu.Lock()
				points := append([]capacity.Point(nil), sweep...)
				mu.Unlock()
				gomega.Expect(points).To(gomega.HaveLen(len(c.Points())),
					failureHeading(at, fmt.Sprintf("only %d of the %d load points produced a report", len(points), len(c.Points()))))
				gomega.Expect(capacity.NewSweep(points, rule)).To(o.Matcher, failureHeading(at, o.Name))
			})
		}
	})
}
