package suites_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/servebench/servebench/fixtures/simengine"
	"github.com/servebench/servebench/matchers"
	"github.com/servebench/servebench/suites"
)

var _ = Describe("the prefix_cache_hit_rate objective", func() {
	It("is read as a fraction and judged per load point", func() {
		c, err := suites.Parse(inline, []byte(minimal+"objectives:\n  prefix_cache_hit_rate: 0.5\n"))
		Expect(err).NotTo(HaveOccurred())
		Expect(c.Objectives.PrefixCacheHitRate).To(Equal(f(0.5)))
		objectives := c.PointObjectives(c.Points()[0])
		last := objectives[len(objectives)-1]
		Expect(last.Name).To(Equal("prefix-cache hit rate >= 0.500"))
		Expect(last.Field).To(Equal("objectives.prefix_cache_hit_rate"))
	})

	DescribeTable("names the line and field of a bad bound",
		func(line, want string) {
			_, err := suites.Parse(inline, []byte(minimal+"objectives:\n"+line+"\n"))
			Expect(err).To(HaveOccurred())
			Expect(strings.Split(err.Error(), "\n")).To(Equal([]string{want}))
		},
		Entry("above 1", "  prefix_cache_hit_rate: 1.5",
			`testdata/inline.yaml:11:26: objectives.prefix_cache_hit_rate: want a fraction in [0, 1], got 1.5`),
		Entry("not a number", "  prefix_cache_hit_rate: high",
			`testdata/inline.yaml:11:26: objectives.prefix_cache_hit_rate: want a number, got "high"`),
	)

	It("passes on a shared prefix that the engine's cache serves, and fails above the rate measured", func(ctx SpecContext) {
		cfg := simengine.DefaultConfig()
		cfg.TimeScale, cfg.PrefixCaching = 0.1, true
		engine, err := simengine.Start(ctx, cfg)
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(engine.Close)
		dir := GinkgoT().TempDir()
		// Every prompt starts with the same 64 one-word tokens, four
		// blocks of 16, which the warmup prefills.
		words := make([]string, 64)
		for i := range words {
			words[i] = fmt.Sprintf("s%d", i)
		}
		var rows strings.Builder
		for i := range 4 {
			fmt.Fprintf(&rows, `{"id":"q%d","prompt":"%s question %d","max_tokens":4,"ignore_eos":true}`+"\n", i, strings.Join(words, " "), i)
		}
		Expect(os.WriteFile(filepath.Join(dir, "workload.jsonl"), []byte(rows.String()), 0o644)).To(Succeed())
		contract := `name: shared-prefix
base_url: ` + engine.BaseURL() + `
model: ` + cfg.Model + `
endpoint: completions
workload:
  file: workload.jsonl
arrival:
  process: constant
  rate: 20
count: 8
warmup: 1
schedule_lag_tolerance: 1s
objectives:
  valid_load: false
  prefix_cache_hit_rate: 0.5
artifacts: ` + dir + `
`
		c, err := suites.Parse(filepath.Join(dir, "contract.yaml"), []byte(contract))
		Expect(err).NotTo(HaveOccurred())
		res, err := c.RunPoint(ctx, c.Points()[0], suites.Target{BaseURL: engine.BaseURL(), Model: cfg.Model,
			MetricsURL: engine.BaseURL() + "/metrics"}, nil)
		Expect(err).NotTo(HaveOccurred())
		pc := res.Report.PrefixCache
		Expect(pc).NotTo(BeNil())
		Expect(pc.HitRate).NotTo(BeNil())
		Expect(pc.EngineHitRate).To(Equal(pc.HitRate))
		// At least 64 of each prompt's tokens (64 plus "question" and
		// the number, with their spaces: 66) are cached.
		Expect(*pc.HitRate).To(BeNumerically(">=", 64.0/66))
		objectives := c.PointObjectives(c.Points()[0])
		Expect(res).To(objectives[len(objectives)-1].Matcher)
		// At least one prompt token is always computed: a rate of 1 is
		// out of reach.
		Expect(res).NotTo(matchers.HavePrefixCacheHitRateAtLeast(1))
	})
})

var _ = Describe("the prefix_reuse_achieved objective", func() {
	It("is read as a fraction and judged per load point", func() {
		c, err := suites.Parse(inline, []byte(minimal+"objectives:\n  prefix_reuse_achieved: 0.8\n"))
		Expect(err).NotTo(HaveOccurred())
		Expect(c.Objectives.PrefixReuseAchieved).To(Equal(f(0.8)))
		objectives := c.PointObjectives(c.Points()[0])
		last := objectives[len(objectives)-1]
		Expect(last.Name).To(Equal("prefix reuse achieved >= 0.800"))
		Expect(last.Field).To(Equal("objectives.prefix_reuse_achieved"))
	})

	It("names the line and field of a bad bound", func() {
		_, err := suites.Parse(inline, []byte(minimal+"objectives:\n  prefix_reuse_achieved: 2\n"))
		Expect(err).To(MatchError(`testdata/inline.yaml:11:26: objectives.prefix_reuse_achieved: want a fraction in [0, 1], got 2`))
	})
})
