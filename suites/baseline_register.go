package suites

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"time"

	"github.com/servebench/servebench/servebench/capacity"

	"github.com/onsi/ginkgo/v2"
	"github.com/onsi/gomega"

	"github.com/servebench/servebench/matchers"
	"github.com/servebench/servebench/servebench"
	"github.com/servebench/servebench/servebench/ab"
	"github.com/servebench/servebench/servebench/compare"
)

// baselineTarget starts (or names) the baseline engine, as acquireTarget
// does for the contract's own.
func baselineTarget(ctx context.Context, c *Contract) Target {
	ginkgo.GinkgoHelper()
	return acquireTarget(ctx, c.baselineContract())
}

// baselineContract is the contract with the baseline's engine or URL in
// place of its own.
func (c *Contract) baselineContract() *Contract {
	b := *c
	b.Name, b.Engine, b.BaseURL, b.Model = c.Name+"-baseline", c.Baseline.Engine, c.Baseline.BaseURL, c.Baseline.Model
	return &b
}

// freshEngines reports whether every A/B run starts its own engines: when
// servebench starts both sides' engines (engine on both sides, neither one
// a SharedEngine) and reuse_engines is not set.
func (c *Contract) freshEngines() bool {
	startsOwn := func(e *EngineSpec) bool {
		if e == nil {
			return false
		}
		_, shared := sharedEngineFor(e.key())
		return !shared
	}
	return !c.Baseline.ReuseEngines && startsOwn(c.Engine) && startsOwn(c.Baseline.Engine)
}

// RunABPoint runs the contract's load point p as an A/B qualification:
// Rounds rounds of baseline and candidate in the balanced ABBA order, every
// run kept under the contract's artifacts, and compares them. With fresh
// engines (see BaselineSpec.ReuseEngines) candidate and baseline are
// ignored: every run starts its own engine. An inconclusive verdict is
// allowed when the contract says inconclusive: pass.
func (c *Contract) RunABPoint(ctx context.Context, p LoadPoint, candidate, baseline Target) (*ab.Result, string, error) {
	cand, err := c.runConfig(p, candidate)
	if err != nil {
		return nil, "", err
	}
	base, err := c.runConfig(p, baseline)
	if err != nil {
		return nil, "", err
	}
	dir := filepath.Join(c.ArtifactsRoot(), dirName(c.Name), time.Now().UTC().Format("20060102T150405.000Z")+"-"+p.Dir+"-ab")
	cfg := ab.Config{
		Baseline: base, Candidate: cand, Rounds: c.Baseline.Rounds, OutputDir: dir,
		Options: compare.Options{Confidence: c.Baseline.Confidence, Tolerances: c.Baseline.baselineTolerances(),
			AllowInconclusive: c.Baseline.Inconclusive == InconclusivePass},
	}
	if c.freshEngines() {
		cfg.StartEngine = (&abEngineStarter{c: c, dir: dir}).start
	}
	res, err := ab.Run(ctx, cfg)
	if err != nil {
		return res, dir, fmt.Errorf("contract %s, %s against baseline: %w", c.Name, p.Name, err)
	}
	return res, dir, nil
}

// abEngineStarter starts a fresh engine for one A/B run and keeps its log
// in the A/B directory when it stops.
type abEngineStarter struct {
	c   *Contract
	dir string
	n   map[compare.Side]int
}

// start starts side's engine and points cfg at it.
func (s *abEngineStarter) start(ctx context.Context, side compare.Side, cfg *servebench.RunConfig) (func(), error) {
	spec := s.c.Engine
	if side == compare.Baseline {
		spec = s.c.Baseline.Engine
	}
	startCtx, cancel := context.WithTimeout(ctx, s.c.startupBudget())
	defer cancel()
	eng, err := StartEngine(startCtx, *spec)
	if errors.Is(err, ErrEngineUnavailable) {
		skipOrFail(s.c, err.Error())
	}
	if err != nil {
		return nil, err
	}
	if s.n == nil {
		s.n = map[compare.Side]int{}
	}
	s.n[side]++
	t := targetOf(eng)
	client := *cfg.Client
	client.BaseURL = t.BaseURL
	if t.Model != "" {
		client.Model = t.Model
	}
	cfg.Client, cfg.EngineMetrics.URL, cfg.Engine = &client, t.MetricsURL, t.Engine
	logPath := filepath.Join(s.dir, fmt.Sprintf("engine-%s-%d-%s.log", side, s.n[side], spec.Kind))
	return func() {
		stopCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 2*time.Minute)
		defer cancel()
		saveEngineLogs(stopCtx, eng, logPath)
		if err := eng.Shutdown(stopCtx); err != nil {
			ginkgo.GinkgoWriter.Printf("servebench: stopping the %s engine: %v\n", side, err)
		}
	}, nil
}

// registerBaseline builds the specs of a contract with a baseline: per load
// point, a container whose BeforeAll runs the ABBA rounds, one It per
// objective judging every candidate round, and one It per comparison at its
// tolerance's line. A sweep adds one It comparing the SLO capacities of the
// two sides, each selected as a sweep's repeats are (a rate passes only when
// every round passes). Unless every run starts its own engines, both
// engines start once, in the contract container's BeforeAll.
func registerBaseline(c *Contract) {
	var target, baseline Target
	// Whether the engines are fresh is decided when the specs run, after
	// SharedEngine has been called.
	var fresh bool
	ginkgo.BeforeAll(func(ctx ginkgo.SpecContext) {
		if fresh = c.freshEngines(); fresh {
			return
		}
		target = acquireTarget(ctx, c)
		baseline = baselineTarget(ctx, c)
	}, ginkgo.NodeTimeout(2*c.startupBudget()+time.Minute))

	budget := func(p LoadPoint) time.Duration {
		// Room for starting and stopping an engine per run, in case they
		// are fresh.
		return time.Duration(2*c.Baseline.Rounds) * (c.RunBudget(p) + c.startupBudget() + 2*time.Minute)
	}
	var baseSweep, candSweep []capacity.Point
	for _, p := range c.Points() {
		at := c.Location("baseline")
		ginkgo.Describe(p.Name+" against baseline", at, func() {
			var res *ab.Result
			ginkgo.BeforeAll(func(ctx ginkgo.SpecContext) {
				engines := fmt.Sprintf("%s (candidate) and %s (baseline)", target.BaseURL, baseline.BaseURL)
				if fresh {
					engines = "a fresh engine per run"
				}
				ginkgo.GinkgoWriter.Printf("servebench: running %s, %s: %d rounds against %s\n", c.Name, p.Name, c.Baseline.Rounds, engines)
				r, dir, err := c.RunABPoint(ctx, p, target, baseline)
				if r != nil {
					for _, rep := range r.Baseline {
						baseSweep = append(baseSweep, capacity.Point{OfferedRPS: p.RateRPS, Report: rep})
					}
					for _, rep := range r.Candidate {
						candSweep = append(candSweep, capacity.Point{OfferedRPS: p.RateRPS, Report: rep})
					}
				}
				heading := failureHeading(at, fmt.Sprintf("%s against baseline: the rounds did not complete (runs kept in %s)", p.Name, dir))
				gomega.Expect(err).NotTo(gomega.HaveOccurred(), func() string { return heading })
				ginkgo.AddReportEntry(ComparisonEntryName, newComparisonEntry(c.Name, p.Name, dir, filepath.Join(dir, compare.ComparisonFile), r.Comparison),
					ginkgo.ReportEntryVisibilityAlways, at)
				res = r
			}, ginkgo.NodeTimeout(budget(p)), ginkgo.GracePeriod(loadGracePeriod))

			for _, o := range c.PointObjectives(p) {
				loc := c.Location(o.Field, "objectives")
				ginkgo.It(o.Name, loc, func() {
					for k, rep := range res.Candidate {
						heading := failureHeading(loc, fmt.Sprintf("%s (candidate round %d)", o.Name, k+1))
						gomega.Expect(rep).To(o.Matcher, func() string { return heading })
					}
				})
			}
			for _, t := range c.Baseline.baselineTolerances() {
				loc := c.Location("baseline.tolerances."+t.Name, "baseline.tolerances", "baseline")
				ginkgo.It(ComparisonName(t), loc, func() {
					// A func, so that the name's "%" is not read as a format verb.
					heading := failureHeading(loc, ComparisonName(t))
					gomega.Expect(oneComparison(res.Comparison, t.Name)).To(c.Baseline.matcher(), func() string { return heading })
				})
			}
		})
	}
	if o, rule, ok := c.CapacityObjective(); ok {
		ginkgo.It(o.Name, c.Location(o.Field), func() {
			gomega.Expect(capacity.NewSweep(candSweep, rule)).To(o.Matcher)
		})
		ginkgo.It("SLO capacity no lower than baseline", c.Location("objectives.capacity"), func() {
			b, cand := capacity.Select(baseSweep, rule), capacity.Select(candSweep, rule)
			gomega.Expect(b.RPS).NotTo(gomega.BeNil(), "no tested rate passed on the baseline: %s", b.Label)
			gomega.Expect(cand.RPS).NotTo(gomega.BeNil(), "no tested rate passed on the candidate, and the baseline's capacity is %v req/s: %s", *b.RPS, cand.Label)
			gomega.Expect(*cand.RPS).To(gomega.BeNumerically(">=", *b.RPS),
				"the candidate's SLO capacity %v req/s (%s) is below the baseline's %v req/s (%s)", *cand.RPS, cand.Label, *b.RPS, b.Label)
		})
	}
}

// oneComparison is the comparison c restricted to the statistic named, with
// that statistic's verdict as its own (an advisory result stays advisory).
func oneComparison(c *compare.Comparison, name string) *compare.Comparison {
	single := *c
	single.Comparisons = nil
	for _, m := range c.Comparisons {
		if m.Name == name {
			single.Comparisons = []compare.MetricComparison{m}
			if single.Verdict != compare.Advisory {
				single.Verdict = m.Verdict
			}
		}
	}
	return &single
}

// matcher judges one comparison: no_regression passes, and inconclusive
// too when the contract says inconclusive: pass.
func (b *BaselineSpec) matcher() matchers.RegressionMatcher {
	if b.Inconclusive == InconclusivePass {
		return matchers.HaveNoRegression().AllowInconclusive()
	}
	return matchers.HaveNoRegression()
}
