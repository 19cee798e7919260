package suites_test

import (
	"os"
	"path/filepath"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/servebench/servebench/fixtures/simengine"
	"github.com/servebench/servebench/matchers"
	"github.com/servebench/servebench/suites"
)

var _ = Describe("the speculative_decoding objective", func() {
	It("is read and judged per load point", func() {
		c, err := suites.Parse(inline, []byte(minimal+"objectives:\n  speculative_decoding: {mean_acceptance_length_at_least: 2.5, acceptance_rate_at_least: 0.6}\n"))
		Expect(err).NotTo(HaveOccurred())
		Expect(c.Objectives.SpeculativeDecoding.MeanAcceptanceLengthAtLeast).To(Equal(f(2.5)))
		Expect(c.Objectives.SpeculativeDecoding.AcceptanceRateAtLeast).To(Equal(f(0.6)))
		objectives := c.PointObjectives(c.Points()[0])
		var names []string
		for _, o := range objectives[len(objectives)-2:] {
			names = append(names, o.Name+" @ "+o.Field)
		}
		Expect(names).To(Equal([]string{
			"mean acceptance length >= 2.500 @ objectives.speculative_decoding.mean_acceptance_length_at_least",
			"acceptance rate >= 0.600 @ objectives.speculative_decoding.acceptance_rate_at_least",
		}))
	})

	DescribeTable("names the line and field of a bad bound",
		func(line, want string) {
			_, err := suites.Parse(inline, []byte(minimal+"objectives:\n"+line+"\n"))
			Expect(err).To(MatchError(want))
		},
		Entry("a length below 1", "  speculative_decoding: {mean_acceptance_length_at_least: 0.5}",
			`testdata/inline.yaml:11:59: objectives.speculative_decoding.mean_acceptance_length_at_least: a mean acceptance length counts the target model's own token, so it is at least 1; got 0.5`),
		Entry("a rate above 1", "  speculative_decoding: {acceptance_rate_at_least: 2}",
			`testdata/inline.yaml:11:52: objectives.speculative_decoding.acceptance_rate_at_least: want a fraction in [0, 1], got 2`),
		Entry("nothing declared", "  speculative_decoding: {}",
			`testdata/inline.yaml:11:25: objectives.speculative_decoding: declare mean_acceptance_length_at_least, acceptance_rate_at_least or both`),
	)

	It("passes on an engine whose drafts are all accepted", func(ctx SpecContext) {
		// Three draft tokens, all accepted: each request forces 13 tokens,
		// 1 from the prefill and 3 drafts of 4, so the mean acceptance
		// length is 1 + 9/3 = 4 and the rate 9/9 = 1.
		cfg := simengine.DefaultConfig()
		cfg.TimeScale, cfg.SpecTokens, cfg.SpecAcceptance = 0.1, 3, 1
		engine, err := simengine.Start(ctx, cfg)
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(engine.Close)
		dir := GinkgoT().TempDir()
		Expect(os.WriteFile(filepath.Join(dir, "workload.jsonl"), []byte(`{"id":"q","prompt":"draft me","max_tokens":13,"ignore_eos":true}`+"\n"), 0o644)).To(Succeed())
		contract := strings.Join([]string{"name: speculation", "base_url: " + engine.BaseURL(), "model: " + cfg.Model, "endpoint: completions",
			"workload:", "  file: workload.jsonl", "arrival:", "  process: constant", "  rate: 20", "count: 3", "schedule_lag_tolerance: 1s",
			"objectives:", "  valid_load: false", "  speculative_decoding: {mean_acceptance_length_at_least: 2.5}", "artifacts: " + dir, ""}, "\n")
		c, err := suites.Parse(filepath.Join(dir, "contract.yaml"), []byte(contract))
		Expect(err).NotTo(HaveOccurred())
		res, err := c.RunPoint(ctx, c.Points()[0], suites.Target{BaseURL: engine.BaseURL(), Model: cfg.Model, MetricsURL: engine.BaseURL() + "/metrics"}, nil)
		Expect(err).NotTo(HaveOccurred())
		sd := res.Report.SpeculativeDecoding
		Expect(sd).NotTo(BeNil())
		Expect([]int64{sd.Drafts, sd.DraftTokens, sd.AcceptedTokens}).To(Equal([]int64{9, 27, 27}))
		objectives := c.PointObjectives(c.Points()[0])
		Expect(res).To(objectives[len(objectives)-1].Matcher)
		Expect(res).NotTo(matchers.HaveMeanAcceptanceLengthAtLeast(4.01))
	})
})
