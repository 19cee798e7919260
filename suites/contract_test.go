package suites_test

import (
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	"github.com/onsi/ginkgo/v2/types"
	. "github.com/onsi/gomega"

	"github.com/servebench/servebench/servebench/capacity"
	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/servebench/report"
	"github.com/servebench/servebench/servebench/schedule"
	"github.com/servebench/servebench/suites"
)

// mustParse parses an inline contract or fails the spec.
func mustParse(yaml string) *suites.Contract {
	GinkgoHelper()
	c, err := suites.Parse(inline, []byte(yaml))
	Expect(err).NotTo(HaveOccurred())
	return c
}

var _ = Describe("Contract", func() {
	Describe("Points", func() {
		It("has one load point per rate, named by process, count and rate", func() {
			c := mustParse(edit(8, "  rates: [2, 4.5]"))
			Expect(c.Points()).To(Equal([]suites.LoadPoint{
				{RateRPS: 2, Name: "constant 10 requests at 2 req/s", Dir: "2rps"},
				{RateRPS: 4.5, Name: "constant 10 requests at 4.5 req/s", Dir: "4.5rps"},
			}))
		})

		It("names a closed loop by its users and a duration-bounded load by its window", func() {
			c := mustParse(strings.Replace(minimal, "  process: constant\n  rate: 5\n", "  process: closed\n  users: 8\n  think_time: 500ms\n", 1))
			Expect(c.Points()).To(Equal([]suites.LoadPoint{{Name: "closed loop with 8 users", Dir: "closed-8users"}}))
			c = mustParse(edit(9, "duration: 30s"))
			Expect(c.Points()[0].Name).To(Equal("constant for 30s at 5 req/s"))
		})

		It("reads users alone as a closed loop, bounded by its duration", func() {
			c := mustParse(strings.Replace(minimal, "  process: constant\n  rate: 5\ncount: 10\n", "  users: 3\nduration: 2s\n", 1))
			Expect(c.Arrival.Process).To(Equal(schedule.ProcessClosed))
			Expect(c.Arrival.Users).To(Equal(3))
			Expect(c.Duration).To(Equal(2 * time.Second))
			Expect(c.Points()).To(Equal([]suites.LoadPoint{{Name: "closed loop with 3 users for 2s", Dir: "closed-3users"}}))
			_, err := suites.Parse(inline, []byte(strings.Replace(minimal, "  rate: 5\n", "  rate: 5\n  users: 3\n", 1)))
			Expect(err).To(MatchError(ContainSubstring("arrival.users: does not apply to the constant process")))
		})
	})

	Describe("RunBudget", func() {
		It("is the declared run timeout when there is one", func() {
			c := mustParse(edit(0, "timeouts: {run: 3m}"))
			Expect(c.RunBudget(c.Points()[0])).To(Equal(3 * time.Minute))
		})

		It("covers one and a half windows, the warmup, the drain and half a minute", func() {
			// 10 requests at 5 req/s: a 2 s window, so 3 s; warmup and drain
			// take a total deadline of 20 s each; plus 30 s: 73 s.
			c := mustParse(edit(0, "warmup: 2\ntimeouts: {total: 20s}"))
			Expect(c.RunBudget(c.Points()[0])).To(Equal(73 * time.Second))
			// Without a warmup or a total deadline: 3 s + 2 min + 30 s.
			c = mustParse(minimal)
			Expect(c.RunBudget(c.Points()[0])).To(Equal(153 * time.Second))
		})
	})

	Describe("PointObjectives", func() {
		It("lists no lost requests, valid load and every declared objective in order", func() {
			c := mustParse(edit(0, `objectives:
  attainment: 0.9
  wilson_lower: 0.8
  confidence: 0.99
  percentiles:
    - {metric: e2e, p: 95, below: 2s}
  error_rate: 0.05
  qualified_rate: 3
  prefix_cache_hit_rate: 0.4`))
			var names []string
			for _, o := range c.PointObjectives(c.Points()[0]) {
				names = append(names, o.Name)
			}
			Expect(names).To(Equal([]string{
				"no lost requests", "valid load", "attainment >= 0.900", "99% Wilson lower bound of attainment >= 0.800",
				"p95 E2E <= 2000 ms", "error rate <= 0.050", "qualified request rate >= 3.000 req/s",
				"prefix-cache hit rate >= 0.400",
			}))
		})

		It("reads drift as the largest growth of p99 over the run", func() {
			c := mustParse(edit(0, "objectives:\n  drift: {max_growth: 0.25}"))
			Expect(*c.Objectives.Drift).To(Equal(0.25))
			objectives := c.PointObjectives(c.Points()[0])
			Expect(objectives[len(objectives)-1].Name).To(Equal("no p99 drift above 25.0%"))
			_, err := suites.Parse(inline, []byte(edit(0, "objectives:\n  drift: {max_growth: -1}")))
			Expect(err).To(MatchError(ContainSubstring("objectives.drift.max_growth: want a growth of at least 0, got -1")))
			_, err = suites.Parse(inline, []byte(edit(0, "objectives:\n  drift: {}")))
			Expect(err).To(MatchError(ContainSubstring("objectives.drift.max_growth: required")))
		})

		It("leaves out valid load when the contract says so", func() {
			c := mustParse(edit(0, "objectives: {valid_load: false}"))
			Expect(c.PointObjectives(c.Points()[0])).To(HaveLen(1))
		})

		It("promises the objectives of a sweep up to its capacity, and judges only lost requests above it", func() {
			c := mustParse(edit(8, "  rates: [2, 4, 8]") + "objectives:\n  attainment: 0.9\n  capacity: 4\n")
			points := c.Points()
			Expect(c.PointObjectives(points[0])).To(HaveLen(3))
			Expect(c.PointObjectives(points[1])).To(HaveLen(3))
			Expect(c.PointObjectives(points[2])).To(HaveLen(1))
			o, rule, ok := c.CapacityObjective()
			Expect(ok).To(BeTrue())
			Expect(o.Name).To(Equal("SLO capacity >= 4.000 req/s"))
			Expect(rule).To(Equal(capacity.Rule{MinAttainment: 0.9, Confidence: 0.95}))
		})
	})

	It("points each generated spec at the contract line that declared it", func() {
		c := mustParse(edit(0, "objectives:\n  attainment: 0.9"))
		objectives := c.PointObjectives(c.Points()[0])
		Expect(c.Location(objectives[2].Field)).To(Equal(types.CodeLocation{FileName: inline, LineNumber: 11}))
		Expect(c.Location("arrival.rates", "arrival.rate")).To(Equal(types.CodeLocation{FileName: inline, LineNumber: 8}))
		Expect(c.Location("objectives.error_rate")).To(Equal(types.CodeLocation{FileName: inline, LineNumber: 1}), "undeclared: the name's line")
	})

	Describe("ArtifactsRoot", func() {
		It("prefers SERVEBENCH_ARTIFACTS, then the contract's field, then the temporary directory", func() {
			GinkgoT().Setenv(suites.EnvArtifacts, "")
			c := mustParse(edit(0, "artifacts: out"))
			Expect(c.ArtifactsRoot()).To(Equal("testdata/out"))
			GinkgoT().Setenv(suites.EnvArtifacts, "/var/tmp/runs")
			Expect(c.ArtifactsRoot()).To(Equal("/var/tmp/runs"))
			GinkgoT().Setenv(suites.EnvArtifacts, "")
			Expect(mustParse(minimal).ArtifactsRoot()).To(HaveSuffix("/servebench-artifacts"))
		})
	})
})

var _ = Describe("RunEntry", func() {
	It("renders a run in one line with its denominators, percentiles, validity and directory", func() {
		a, w, ttft, e2e := 0.75, 0.5, 180.25, 950.0
		e := &suites.RunEntry{Contract: "chat", LoadPoint: "poisson 8 requests at 4 req/s", Dir: "/runs/chat/x", Report: &report.Report{
			Offered: 8, Qualified: 6, Attainment: &a, WilsonLower: &w, WilsonConfidence: 0.95,
			StatusCounts: map[record.Status]int{record.StatusSuccess: 7, record.StatusTimeout: 1},
			Percentiles: map[record.Metric]report.Distribution{
				record.MetricTTFT: {N: 7, P99: &ttft},
				record.MetricE2E:  {N: 7, P99: &e2e},
			},
			Valid: false, InvalidReasons: []string{"1 request not sent"},
		}}
		Expect(e.ColorableString()).To(Equal("{{bold}}chat, poisson 8 requests at 4 req/s{{/}}: attainment 0.750 (6 of 8 offered qualified), " +
			"Wilson lower 0.500 at 95%; success 7, timeout 1; p99 ttft 180.2 ms (n=7); p99 e2e 950.0 ms (n=7); " +
			"{{red}}load not delivered: 1 request not sent{{/}}; run directory /runs/chat/x"))
	})
})
