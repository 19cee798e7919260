package suites

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"time"

	"github.com/servebench/servebench/servebench/capacity"

	"github.com/onsi/ginkgo/v2"
	"github.com/onsi/ginkgo/v2/types"
	"github.com/onsi/gomega"

	"github.com/servebench/servebench/matchers"
	"github.com/servebench/servebench/servebench"
	"github.com/servebench/servebench/servebench/ab"
	"github.com/servebench/servebench/servebench/compare"
)

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
	return c.runABPoint(ctx, p, candidate, baseline, io.Discard)
}

// runABPoint is RunABPoint with fresh engines' log lines written to log.
func (c *Contract) runABPoint(ctx context.Context, p LoadPoint, candidate, baseline Target, log io.Writer) (*ab.Result, string, error) {
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
		Baseline: base, Candidate: cand, Rounds: c.Baseline.Rounds, MaxRounds: c.Baseline.MaxRounds,
		MaxDuration: c.Baseline.MaxDuration, OutputDir: dir,
		Options: compare.Options{Confidence: c.Baseline.Confidence, Tolerances: c.Baseline.baselineTolerances(),
			Decide: c.Baseline.Decide, AllowInconclusive: c.Baseline.Inconclusive == InconclusivePass},
	}
	if c.freshEngines() {
		cfg.StartEngine = (&abEngineStarter{c: c, log: log, dir: dir}).start
	}
	cfg.SameServer = c.sameServer()
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
	log io.Writer
	dir string
	n   map[compare.Side]int
}

// start starts side's engine and points cfg at it. An engine that cannot
// run here is an error that wraps ErrEngineUnavailable.
func (s *abEngineStarter) start(ctx context.Context, side compare.Side, cfg *servebench.RunConfig) (func(), error) {
	spec := s.c.Engine
	if side == compare.Baseline {
		spec = s.c.Baseline.Engine
	}
	startCtx, cancel := context.WithTimeout(ctx, s.c.startupBudget())
	defer cancel()
	eng, err := StartEngine(startCtx, *spec)
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
		saveEngineLogs(stopCtx, s.log, eng, logPath)
		if err := eng.Shutdown(stopCtx); err != nil {
			fmt.Fprintf(s.log, "servebench: stopping the %s engine: %v\n", side, err)
		}
	}, nil
}

// abRun is one run of a contract with a baseline: both targets (unless
// every run starts fresh engines) and each side's sweep points, with the
// steps and judgments that registerBaseline's specs and Check share.
type abRun struct {
	c *Contract
	// log receives progress lines: GinkgoWriter in a suite.
	log              io.Writer
	target, baseline Target
	// fresh is whether every A/B run starts its own engines; decided when
	// the run starts, after SharedEngine has been called.
	fresh                bool
	baseSweep, candSweep []capacity.Point
}

// baselineLocation is where a contract declares its baseline.
func (c *Contract) baselineLocation() types.CodeLocation { return c.Location("baseline") }

// abBudget bounds one load point's rounds, with room for starting and
// stopping an engine per run, in case they are fresh.
func (c *Contract) abBudget(p LoadPoint) time.Duration {
	return time.Duration(2*c.Baseline.maxRounds()) * (c.RunBudget(p) + c.startupBudget() + 2*time.Minute)
}

// runPoint runs load point p's rounds and keeps each side's reports for
// the capacities; dir is the A/B directory.
func (r *abRun) runPoint(ctx context.Context, p LoadPoint) (*ab.Result, string, error) {
	engines := fmt.Sprintf("%s (candidate) and %s (baseline)", r.target.BaseURL, r.baseline.BaseURL)
	if r.fresh {
		engines = "a fresh engine per run"
	}
	fmt.Fprintf(r.log, "servebench: running %s, %s: %s against %s\n", r.c.Name, p.Name, r.c.Baseline.roundsText(), engines)
	if plan := r.c.planCheck(p); plan != "" {
		fmt.Fprintf(r.log, "servebench: %s, %s: %s", r.c.Name, p.Name, plan)
	}
	if warn := r.c.sameServer(); warn != "" {
		fmt.Fprintf(r.log, "servebench: WARNING: %s, %s: %s\n", r.c.Name, p.Name, warn)
	}
	res, dir, err := r.c.runABPoint(ctx, p, r.target, r.baseline, r.log)
	if res != nil && err == nil {
		if werr := r.c.writeCandidateObjectives(p, res, dir); werr != nil {
			fmt.Fprintf(r.log, "servebench: %s, %s: adding the objectives' verdicts to the candidate rounds' reports: %v\n", r.c.Name, p.Name, werr)
		}
	}
	if res != nil {
		for _, rep := range res.Baseline {
			r.baseSweep = append(r.baseSweep, capacity.Point{OfferedRPS: p.RateRPS, Report: rep})
		}
		for _, rep := range res.Candidate {
			r.candSweep = append(r.candSweep, capacity.Point{OfferedRPS: p.RateRPS, Report: rep})
		}
	}
	return res, dir, err
}

// abFailureHeading heads the failure of a load point whose rounds did not
// complete.
func (c *Contract) abFailureHeading(p LoadPoint, dir string) string {
	return failureHeading(c.baselineLocation(), fmt.Sprintf("%s against baseline: the rounds did not complete (runs kept in %s)", p.Name, dir))
}

// judgeCandidate judges objective o on every candidate round of res: the
// first round that fails it is the verdict; when all pass, the measured
// values of the rounds are listed.
func (c *Contract) judgeCandidate(p LoadPoint, o Objective, res *ab.Result) Verdict {
	var measured []string
	var last Verdict
	for k, rep := range res.Candidate {
		last = c.judgeObjective(p, o, rep, fmt.Sprintf("candidate round %d", k+1))
		if last.Outcome != Passed {
			return last
		}
		measured = append(measured, last.Measured)
	}
	last.Measured = ""
	if len(measured) > 0 && measured[0] != "" {
		last.Measured = strings.Join(measured, "; ")
	}
	return last
}

// toleranceLocation is the line of the tolerance named t.
func (c *Contract) toleranceLocation(t compare.Tolerance) types.CodeLocation {
	return c.Location("baseline.tolerances."+t.Name, "baseline.tolerances", "baseline")
}

// judgeComparison judges the comparison of one statistic at load point p:
// no_regression passes, inconclusive too when the contract says
// inconclusive: pass. A failure's exit code is the comparison's own.
func (c *Contract) judgeComparison(p LoadPoint, t compare.Tolerance, res *ab.Result) Verdict {
	at := c.toleranceLocation(t)
	v := Verdict{Contract: c.Name, LoadPoint: p.Name, Name: ComparisonName(t), At: at}
	one := oneComparison(res.Comparison, t.Name)
	v = judge(v, c.Baseline.matcher(), one, failureHeading(at, ComparisonName(t)))
	if len(one.Comparisons) == 1 {
		m := one.Comparisons[0]
		v.Measured = strings.TrimPrefix(m.Describe(), m.Name+": ")
	}
	if v.Outcome == Failed && one.ExitCode() != 0 {
		v.ExitCode = one.ExitCode()
	}
	return v
}

// capacityAgainstBaselineName names the spec comparing the two sides' SLO
// capacities.
const capacityAgainstBaselineName = "SLO capacity no lower than baseline"

// judgeCapacities judges the candidate's capacity objective o over its
// rounds (a rate passes only when every round passes).
func (r *abRun) judgeCapacity(o Objective, rule capacity.Rule) Verdict {
	at := r.c.Location(o.Field)
	v := Verdict{Contract: r.c.Name, Name: o.Name, At: at}
	return judge(v, o.Matcher, capacity.NewSweep(r.candSweep, rule), failureHeading(at, o.Name))
}

// judgeCapacityAgainstBaseline judges that the candidate's SLO capacity is
// no lower than the baseline's, each selected from its rounds.
func (r *abRun) judgeCapacityAgainstBaseline(rule capacity.Rule) Verdict {
	at := r.c.Location("objectives.capacity")
	v := Verdict{Contract: r.c.Name, Name: capacityAgainstBaselineName, At: at}
	heading := failureHeading(at, capacityAgainstBaselineName)
	b, cand := capacity.Select(r.baseSweep, rule), capacity.Select(r.candSweep, rule)
	switch {
	case b.RPS == nil:
		return failed(v, 2, heading, "no tested rate passed on the baseline: "+b.Label)
	case cand.RPS == nil:
		return failed(v, 5, heading, fmt.Sprintf("no tested rate passed on the candidate, and the baseline's capacity is %v req/s: %s", *b.RPS, cand.Label))
	case *cand.RPS < *b.RPS:
		return failed(v, 5, heading, fmt.Sprintf("the candidate's SLO capacity %v req/s (%s) is below the baseline's %v req/s (%s)", *cand.RPS, cand.Label, *b.RPS, b.Label))
	}
	v.Outcome, v.Measured = Passed, fmt.Sprintf("candidate %v req/s, baseline %v req/s", *cand.RPS, *b.RPS)
	return v
}

// registerBaseline builds the specs of a contract with a baseline: per load
// point, a container whose BeforeAll runs the ABBA rounds, one It per
// objective judging every candidate round, and one It per comparison at its
// tolerance's line. A sweep adds one It comparing the SLO capacities of the
// two sides, each selected as a sweep's repeats are (a rate passes only when
// every round passes). Unless every run starts its own engines, both
// engines start once, in the contract container's BeforeAll.
func registerBaseline(c *Contract) {
	run := &abRun{c: c, log: ginkgo.GinkgoWriter}
	ginkgo.BeforeAll(func(ctx ginkgo.SpecContext) {
		if run.fresh = c.freshEngines(); run.fresh {
			return
		}
		run.target = acquireTarget(ctx, c)
		run.baseline = acquireTarget(ctx, c.baselineContract())
	}, ginkgo.NodeTimeout(2*c.startupBudget()+time.Minute))

	for _, p := range c.Points() {
		registerABPoint(run, p)
	}
	if o, rule, ok := c.CapacityObjective(); ok {
		ginkgo.It(o.Name, c.Location(o.Field), func() {
			failOn(run.judgeCapacity(o, rule))
		})
		ginkgo.It(capacityAgainstBaselineName, c.Location("objectives.capacity"), func() {
			failOn(run.judgeCapacityAgainstBaseline(rule))
		})
	}
}

// registerABPoint builds one load point's container of a contract with a
// baseline.
func registerABPoint(run *abRun, p LoadPoint) {
	c := run.c
	at := c.baselineLocation()
	ginkgo.Describe(p.Name+" against baseline", at, func() {
		var res *ab.Result
		ginkgo.BeforeAll(func(ctx ginkgo.SpecContext) {
			r, dir, err := run.runPoint(ctx, p)
			if errors.Is(err, ErrEngineUnavailable) {
				skipOrFail(c, err.Error())
			}
			heading := c.abFailureHeading(p, dir)
			gomega.Expect(err).NotTo(gomega.HaveOccurred(), func() string { return heading })
			ginkgo.AddReportEntry(ComparisonEntryName, newComparisonEntry(c.Name, p.Name, dir, filepath.Join(dir, compare.ComparisonFile), r.Comparison),
				ginkgo.ReportEntryVisibilityAlways, at)
			res = r
		}, ginkgo.NodeTimeout(c.abBudget(p)), ginkgo.GracePeriod(loadGracePeriod))

		for _, o := range c.PointObjectives(p) {
			ginkgo.It(o.Name, c.Location(o.Field, "objectives"), o.labels(), func() {
				failOn(c.judgeCandidate(p, o, res))
			})
		}
		for _, t := range c.Baseline.baselineTolerances() {
			ginkgo.It(ComparisonName(t), c.toleranceLocation(t), func() {
				failOn(c.judgeComparison(p, t, res))
			})
		}
	})
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
	return matchers.HaveNoRegression().InconclusiveAdvice("set inconclusive: pass in the baseline section")
}

// maxRounds is the most rounds a side can run: the fixed rounds, or
// MaxRounds with rounds: auto.
func (b *BaselineSpec) maxRounds() int {
	if b.Rounds == ab.RoundsAuto {
		return max(b.MaxRounds, ab.FirstLookRounds)
	}
	return b.Rounds
}

// roundsText says how many rounds a load point runs.
func (b *BaselineSpec) roundsText() string {
	if b.Rounds == ab.RoundsAuto {
		return fmt.Sprintf("rounds until decided (at most %d)", b.maxRounds())
	}
	return fmt.Sprintf("%d rounds", b.Rounds)
}

// sameServer says why the baseline and the candidate are one server: both
// engine sections are the same and SharedEngine started it, or both name
// the same base URL; "" otherwise.
func (c *Contract) sameServer() string {
	b := c.Baseline
	switch {
	case c.Engine != nil && b.Engine != nil && c.Engine.key() == b.Engine.key():
		if _, shared := sharedEngineFor(c.Engine.key()); shared {
			return "the baseline and the candidate have the same engine section, and SharedEngine started one engine for both: an A/B of one server measures only its noise"
		}
	case c.BaseURL != "" && c.BaseURL == b.BaseURL:
		return "the baseline and the candidate are one server (" + c.BaseURL + "): an A/B of one server measures only its noise"
	}
	return ""
}
