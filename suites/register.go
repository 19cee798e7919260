package suites

import (
	"time"

	"github.com/onsi/ginkgo/v2"
	"github.com/onsi/gomega"

	"github.com/servebench/servebench/internal/stepsummary"
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
// stopped when the container ends. When $GITHUB_STEP_SUMMARY is set, the
// contract's verdicts are appended to it as a table when its container
// ends (ContractStepSummary).
func Register(contracts ...*Contract) {
	for _, c := range contracts {
		register(c)
	}
}

// register builds one contract's container.
func register(c *Contract) {
	contractFiles.Store(c.Path, true)
	ginkgo.Describe(c.Name, ginkgo.Label(c.AllLabels()...), ginkgo.Ordered, ginkgo.ContinueOnFailure, ginkgo.Serial, c.Location("name"), func() {
		ginkgo.AfterAll(func() {
			gomega.Expect(appendContractSummary(c)).To(gomega.Succeed(), "appending the contract's verdict to $"+stepsummary.EnvVar)
		})
		if c.Baseline != nil {
			registerBaseline(c)
			return
		}
		run := &contractRun{c: c, log: ginkgo.GinkgoWriter}
		ginkgo.BeforeAll(func(ctx ginkgo.SpecContext) {
			run.target = acquireTarget(ctx, c)
		}, ginkgo.NodeTimeout(c.startupBudget()+time.Minute))
		if c.UserSearch != nil {
			registerUserSearch(run)
			return
		}
		for _, p := range c.Points() {
			registerPoint(run, p)
		}
		if c.Arrival.Sweep() {
			ginkgo.AfterAll(func() {
				entry, err := run.writeSweep()
				gomega.Expect(err).NotTo(gomega.HaveOccurred(), "keeping sweep.json and sweep.html")
				if entry != nil {
					ginkgo.AddReportEntry(SweepEntryName, entry, ginkgo.ReportEntryVisibilityAlways, c.Location("arrival.rates", "arrival"))
				}
			})
		}
		if o, rule, ok := c.CapacityObjective(); ok {
			ginkgo.It(o.Name, c.Location(o.Field), func() {
				failOn(run.judgeCapacity(o, rule))
			})
		}
	})
}

// registerPoint builds one load point's container: a BeforeAll that runs
// the load and attaches its RunEntry, then one It per objective.
func registerPoint(run *contractRun, p LoadPoint) {
	c := run.c
	ginkgo.Describe(p.Name, c.pointLocation(), func() {
		var result *servebench.RunResult
		ginkgo.BeforeAll(func(ctx ginkgo.SpecContext) {
			res, err := run.runPoint(ctx, p)
			if res != nil && res.Report != nil {
				ginkgo.AddReportEntry(ReportEntryName, &RunEntry{Contract: c.Name, LoadPoint: p.Name, Dir: res.Dir, Report: res.Report},
					ginkgo.ReportEntryVisibilityAlways, c.pointLocation())
			}
			gomega.Expect(err).NotTo(gomega.HaveOccurred(), c.pointFailureHeading(p))
			result = res
		}, ginkgo.NodeTimeout(c.RunBudget(p)), ginkgo.GracePeriod(loadGracePeriod))

		for _, o := range c.PointObjectives(p) {
			ginkgo.It(o.Name, c.Location(o.Field, "objectives"), o.labels(), func() {
				failOn(c.judgeObjective(p, o, result, ""))
			})
		}
	})
}

// failOn fails the running spec with the verdict's message when it failed,
// skips it with the reason when it is unjudged, and records an
// informational objective's failure as a report entry, failing nothing.
func failOn(v Verdict) {
	ginkgo.GinkgoHelper()
	collect(v)
	if v.Measured != "" {
		ginkgo.AddReportEntry(MeasuredEntryName, v.Measured, ginkgo.ReportEntryVisibilityNever)
	}
	switch v.Outcome {
	case Failed:
		ginkgo.Fail(v.Message)
	case Unjudged:
		ginkgo.Skip("unjudged: " + v.Message)
	case Informational:
		ginkgo.AddReportEntry(InformationalEntryName, v.Message, ginkgo.ReportEntryVisibilityAlways)
	}
}

// InformationalEntryName names the report entry of an informational
// objective that does not hold: its failure message, which fails nothing.
const InformationalEntryName = "servebench informational"

// labels are an objective's spec labels: tier:NAME for a tier's, and
// informational above the enforced tier.
func (o Objective) labels() ginkgo.Labels {
	var out ginkgo.Labels
	if o.Tier != "" {
		out = append(out, "tier:"+o.Tier)
	}
	if o.Informational {
		out = append(out, "informational")
	}
	return out
}
