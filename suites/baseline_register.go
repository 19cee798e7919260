package suites

import (
	"context"
	"fmt"
	"path/filepath"
	"time"

	"github.com/onsi/ginkgo/v2"
	"github.com/onsi/gomega"

	"github.com/servebench/servebench/matchers"
	"github.com/servebench/servebench/servebench"
	"github.com/servebench/servebench/servebench/compare"
)

// baselineTarget starts (or names) the baseline engine, as acquireTarget
// does for the contract's own.
func baselineTarget(ctx context.Context, c *Contract) Target {
	ginkgo.GinkgoHelper()
	b := *c
	b.Name, b.Engine, b.BaseURL, b.Model = c.Name+"-baseline", c.Baseline.Engine, c.Baseline.BaseURL, c.Baseline.Model
	return acquireTarget(ctx, &b)
}

// RunABPoint runs the contract's load point p as an A/B qualification:
// Rounds rounds of baseline and candidate in alternating order, every run
// kept under the contract's artifacts, and compares them.
func (c *Contract) RunABPoint(ctx context.Context, p LoadPoint, candidate, baseline Target) (*compare.ABResult, string, error) {
	cand, err := c.runConfig(p, candidate)
	if err != nil {
		return nil, "", err
	}
	base, err := c.runConfig(p, baseline)
	if err != nil {
		return nil, "", err
	}
	dir := filepath.Join(c.ArtifactsRoot(), dirName(c.Name), time.Now().UTC().Format("20060102T150405.000Z")+"-"+p.Dir+"-ab")
	res, err := compare.RunAB(ctx, compare.ABConfig{
		Baseline: base, Candidate: cand, Rounds: c.Baseline.Rounds, OutputDir: dir,
		Options: compare.Options{Confidence: c.Baseline.Confidence, Tolerances: c.Baseline.baselineTolerances()},
	})
	if err != nil {
		return res, dir, fmt.Errorf("contract %s, %s against baseline: %w", c.Name, p.Name, err)
	}
	return res, dir, nil
}

// registerBaseline builds the specs of a contract with a baseline: per load
// point, a container whose BeforeAll runs the alternating rounds, one It per
// objective judging every candidate round, and one It per comparison at its
// tolerance's line. A sweep adds one It comparing the SLO capacities of the
// two sides, each selected as a sweep's repeats are (a rate passes only when
// every round passes).
func registerBaseline(c *Contract, target *Target) {
	var baseline Target
	ginkgo.BeforeAll(func(ctx ginkgo.SpecContext) {
		baseline = baselineTarget(ctx, c)
	}, ginkgo.NodeTimeout(c.startupBudget()+time.Minute))

	var baseSweep, candSweep []servebench.SweepPoint
	for _, p := range c.Points() {
		ginkgo.Describe(p.Name+" against baseline", c.Location("baseline"), func() {
			var res *compare.ABResult
			ginkgo.BeforeAll(func(ctx ginkgo.SpecContext) {
				ginkgo.GinkgoWriter.Printf("servebench: running %s, %s: %d rounds against %s (candidate) and %s (baseline)\n",
					c.Name, p.Name, c.Baseline.Rounds, target.BaseURL, baseline.BaseURL)
				r, dir, err := c.RunABPoint(ctx, p, *target, baseline)
				if r != nil {
					for _, rep := range r.Baseline {
						baseSweep = append(baseSweep, servebench.SweepPoint{OfferedRPS: p.RateRPS, Report: rep})
					}
					for _, rep := range r.Candidate {
						candSweep = append(candSweep, servebench.SweepPoint{OfferedRPS: p.RateRPS, Report: rep})
					}
				}
				gomega.Expect(err).NotTo(gomega.HaveOccurred(), "the rounds did not complete (runs kept in %s)", dir)
				ginkgo.AddReportEntry(ReportEntryName+"-comparison", r.Comparison, ginkgo.ReportEntryVisibilityAlways, c.Location("baseline"))
				res = r
			}, ginkgo.NodeTimeout(time.Duration(2*c.Baseline.Rounds)*c.RunBudget(p)), ginkgo.GracePeriod(loadGracePeriod))

			for _, o := range c.PointObjectives(p) {
				ginkgo.It(o.Name, c.Location(o.Field, "objectives"), func() {
					for k, rep := range res.Candidate {
						gomega.Expect(rep).To(o.Matcher, "candidate round %d", k+1)
					}
				})
			}
			for _, t := range c.Baseline.baselineTolerances() {
				ginkgo.It(ComparisonName(t), c.Location("baseline.tolerances."+t.Name, "baseline.tolerances", "baseline"), func() {
					var one *compare.MetricComparison
					for i := range res.Comparison.Comparisons {
						if res.Comparison.Comparisons[i].Name == t.Name {
							one = &res.Comparison.Comparisons[i]
						}
					}
					gomega.Expect(one).NotTo(gomega.BeNil())
					single := *res.Comparison
					single.Comparisons = []compare.MetricComparison{*one}
					single.Verdict = one.Verdict
					gomega.Expect(&single).To(matchers.HaveNoRegression())
				})
			}
		})
	}
	if o, rule, ok := c.CapacityObjective(); ok {
		ginkgo.It(o.Name, c.Location(o.Field), func() {
			gomega.Expect(servebench.NewSweep(candSweep, rule)).To(o.Matcher)
		})
		ginkgo.It("SLO capacity no lower than baseline", c.Location("objectives.capacity"), func() {
			b, cand := servebench.SelectCapacity(baseSweep, rule), servebench.SelectCapacity(candSweep, rule)
			gomega.Expect(b.RPS).NotTo(gomega.BeNil(), "no tested rate passed on the baseline: %s", b.Label)
			gomega.Expect(cand.RPS).NotTo(gomega.BeNil(), "no tested rate passed on the candidate, and the baseline's capacity is %v req/s: %s", *b.RPS, cand.Label)
			gomega.Expect(*cand.RPS).To(gomega.BeNumerically(">=", *b.RPS),
				"the candidate's SLO capacity %v req/s (%s) is below the baseline's %v req/s (%s)", *cand.RPS, cand.Label, *b.RPS, b.Label)
		})
	}
}
