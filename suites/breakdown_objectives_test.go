package suites_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	"github.com/onsi/ginkgo/v2/types"
	. "github.com/onsi/gomega"

	"github.com/servebench/servebench/fixtures/simengine"
	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/servebench/report"
	"github.com/servebench/servebench/suites"
)

var _ = Describe("the breakdown objectives", func() {
	It("reads each entry's bounds and makes one spec of each, at the line of its field", func() {
		c, err := suites.Parse(inline, []byte(minimal+`objectives:
  breakdown:
    - {dimension: adapter, value: sql, attainment: 0.9, wilson_lower_bound: 0.8, percentiles: [{metric: ttft, p: 99, below: 2s}]}
    - dimension: turn
      value: 2
      percentiles:
        - {metric: e2e_ms, p: 100, below: 5s}
`))
		Expect(err).NotTo(HaveOccurred())
		Expect(c.Objectives.Breakdown).To(Equal([]suites.BreakdownObjective{
			{Dimension: "adapter", Value: "sql", Attainment: f(0.9), WilsonLower: f(0.8),
				Percentiles: []suites.PercentileObjective{{Metric: record.MetricTTFT, P: 99, Below: 2 * time.Second}}},
			{Dimension: "turn", Value: "2",
				Percentiles: []suites.PercentileObjective{{Metric: record.MetricE2E, P: 100, Below: 5 * time.Second}}},
		}))
		var names, fields []string
		for _, o := range c.PointObjectives(c.Points()[0])[2:] {
			names, fields = append(names, o.Name), append(fields, o.Field)
		}
		Expect(names).To(Equal([]string{
			"adapter sql: attainment >= 0.900",
			"adapter sql: 95% Wilson lower bound of attainment >= 0.800",
			"adapter sql: p99 TTFT <= 2000 ms",
			"turn 2: p100 E2E <= 5000 ms",
		}))
		Expect(fields).To(Equal([]string{
			"objectives.breakdown[0].attainment",
			"objectives.breakdown[0].wilson_lower_bound",
			"objectives.breakdown[0].percentiles[0]",
			"objectives.breakdown[1].percentiles[0]",
		}))
		Expect(c.Location(fields[0])).To(Equal(types.CodeLocation{FileName: inline, LineNumber: 12}))
		Expect(c.Location(fields[3])).To(Equal(types.CodeLocation{FileName: inline, LineNumber: 16}))
	})

	It("lets the objectives' confidence apply to a breakdown Wilson bound", func() {
		c, err := suites.Parse(inline, []byte(minimal+"objectives:\n  confidence: 0.99\n  breakdown: [{dimension: class, value: short, wilson_lower: 0.5}]\n"))
		Expect(err).NotTo(HaveOccurred())
		Expect(c.Objectives.Breakdown[0].WilsonLower).To(Equal(f(0.5)))
		objectives := c.PointObjectives(c.Points()[0])
		Expect(objectives[len(objectives)-1].Name).To(Equal("class short: 99% Wilson lower bound of attainment >= 0.500"))
	})

	DescribeTable("refuses a bad entry when the contract loads, naming the line and field",
		func(entry string, want ...string) {
			_, err := suites.Parse(inline, []byte(minimal+"objectives:\n  breakdown:\n"+entry+"\n"))
			Expect(err).To(HaveOccurred())
			Expect(strings.Split(err.Error(), "\n")).To(Equal(want))
		},
		Entry("an unknown dimension", "    - {dimension: region, value: eu, attainment: 0.9}",
			`testdata/inline.yaml:12:19: objectives.breakdown[0].dimension: unknown dimension "region" (want one of `+
				strings.Join(report.BreakdownDimensions(), ", ")+`)`),
		Entry("an empty value", `    - {dimension: adapter, value: "", attainment: 0.9}`,
			`testdata/inline.yaml:12:35: objectives.breakdown[0].value: must not be empty`),
		Entry("no value", "    - {dimension: adapter, attainment: 0.9}",
			`testdata/inline.yaml:12:7: objectives.breakdown[0].value: required`),
		Entry("an attainment above 1", "    - {dimension: adapter, value: sql, attainment: 1.5}",
			`testdata/inline.yaml:12:52: objectives.breakdown[0].attainment: want a fraction in [0, 1], got 1.5`),
		Entry("no objective", "    - {dimension: adapter, value: sql}",
			`testdata/inline.yaml:12:7: objectives.breakdown[0]: declares no objective: give attainment, wilson_lower_bound or percentiles`),
		Entry("a metric a breakdown value does not keep", "    - {dimension: adapter, value: sql, percentiles: [{metric: itl, p: 99, below: 1s}]}",
			`testdata/inline.yaml:12:63: objectives.breakdown[0].percentiles[0].metric: a breakdown value keeps only ttft, tpot, e2e: itl is judged on the whole cohort (objectives.percentiles)`),
		Entry("both spellings of the Wilson bound", "    - {dimension: adapter, value: sql, wilson_lower_bound: 0.8, wilson_lower: 0.8}",
			`testdata/inline.yaml:12:79: objectives.breakdown[0].wilson_lower: give wilson_lower_bound or wilson_lower, not both`),
		Entry("an unknown field", "    - {dimension: adapter, value: sql, below: 1s}",
			`testdata/inline.yaml:12:40: objectives.breakdown[0].below: unknown field (known: attainment, dimension, percentiles, value, wilson_lower, wilson_lower_bound)`,
			`testdata/inline.yaml:12:7: objectives.breakdown[0]: declares no objective: give attainment, wilson_lower_bound or percentiles`),
		Entry("not a list", "    adapter: sql",
			`testdata/inline.yaml:12:5: objectives.breakdown: want a list of {dimension, value, attainment, wilson_lower_bound, percentiles}, got a mapping`),
	)

	It("judges one adapter of a run against the simulated engine: a met bound passes, a too strict one fails", func(ctx SpecContext) {
		cfg := simengine.DefaultConfig()
		cfg.TimeScale, cfg.Adapters = 0.1, []string{"sql", "chat"}
		engine, err := simengine.Start(ctx, cfg)
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(engine.Close)
		dir := GinkgoT().TempDir()
		var rows strings.Builder
		for _, id := range []string{"a", "b", "c", "d"} {
			rows.WriteString(`{"id":"` + id + `","prompt":"say ` + id + `","max_tokens":4,"ignore_eos":true}` + "\n")
		}
		Expect(os.WriteFile(filepath.Join(dir, "workload.jsonl"), []byte(rows.String()), 0o644)).To(Succeed())
		// No SLO: a request qualifies when it succeeds. Every one of the
		// at most 12 sql requests succeeds, so the attainment is 1, and
		// the Wilson bound of n of n is n/(n + z²) with z² = 2.7055: at
		// most 12/14.71 = 0.816, below 0.9.
		contract := `name: adapter-mix
base_url: ` + engine.BaseURL() + `
model: ` + cfg.Model + `
endpoint: completions
workload:
  file: workload.jsonl
arrival:
  process: constant
  rate: 20
count: 12
adapters: {sql: 3, chat: 1}
schedule_lag_tolerance: 1s
objectives:
  valid_load: false
  breakdown:
    - {dimension: adapter, value: sql, attainment: 1, percentiles: [{metric: ttft, p: 100, below: 60s}, {metric: ttft, p: 99.9, below: 60s}]}
    - {dimension: adapter, value: sql, wilson_lower_bound: 0.9}
artifacts: ` + dir + `
`
		c, err := suites.Parse(filepath.Join(dir, "contract.yaml"), []byte(contract))
		Expect(err).NotTo(HaveOccurred())
		res, err := c.RunPoint(ctx, c.Points()[0], suites.Target{BaseURL: engine.BaseURL(), Model: cfg.Model}, nil)
		Expect(err).NotTo(HaveOccurred())
		sql := res.Report.Breakdown["adapter"].Values["sql"]
		Expect(sql.Offered).To(BeNumerically(">", 0))
		Expect(sql.Qualified).To(Equal(sql.Offered))
		objectives := c.PointObjectives(c.Points()[0])
		met, strict := objectives[len(objectives)-4:len(objectives)-1], objectives[len(objectives)-1]
		Expect(met[0].Name).To(Equal("adapter sql: attainment >= 1.000"))
		Expect(met[1].Name).To(Equal("adapter sql: p100 TTFT <= 60000 ms"))
		// A level the report keeps only because the contract names it.
		Expect(met[2].Name).To(Equal("adapter sql: p99.9 TTFT <= 60000 ms"))
		Expect(sql.TTFT.Extra).To(HaveKeyWithValue("p99.9", *sql.TTFT.Max), "p99.9 of a handful by nearest rank is the largest")
		for _, o := range met {
			Expect(res).To(o.Matcher)
		}
		Expect(strict.Name).To(Equal("adapter sql: 95% Wilson lower bound of attainment >= 0.900"))
		Expect(res).NotTo(strict.Matcher)
		Expect(res.Report.Requests).To(BeEmpty())
		msg := strict.Matcher.FailureMessage(res)
		Expect(msg).To(HavePrefix("in breakdown adapter=sql: Expected the one-sided 95% Wilson lower bound of attainment"))
		// The statuses are counted from the run's requests.jsonl, sql's only.
		Expect(msg).To(ContainSubstring(fmt.Sprintf("(%d of %d offered qualified, observed 100.0%%)", sql.Offered, sql.Offered)))
		Expect(msg).To(ContainSubstring(fmt.Sprintf("\nterminal statuses: success %d", sql.Offered)))
	})
})
