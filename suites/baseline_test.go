package suites_test

import (
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/servebench/servebench/servebench/ab"
	"github.com/servebench/servebench/servebench/compare"
	"github.com/servebench/servebench/suites"
)

var _ = Describe("the baseline section", func() {
	It("reads the engine, rounds and tolerances, and places each comparison at its line", func() {
		c := mustParse(edit(0, "baseline:\n  base_url: http://127.0.0.1:9\n  model: old\n  rounds: 5\n  tolerances:\n    ttft_p99: 10%\n    attainment: 0.02"))
		Expect(c.Baseline).To(Equal(&suites.BaselineSpec{BaseURL: "http://127.0.0.1:9", Model: "old", Rounds: 5, MaxRounds: 20, Confidence: 0.95,
			Inconclusive: suites.InconclusiveFail, Tolerances: []compare.Tolerance{{Name: "ttft_p99", Value: 0.1}, {Name: "attainment", Value: 0.02}}}))
		Expect(c.Location("baseline.tolerances.ttft_p99").LineNumber).To(Equal(15))
		Expect(c.Location("baseline.tolerances.attainment").LineNumber).To(Equal(16))
		Expect(suites.ComparisonName(c.Baseline.Tolerances[0])).To(Equal("p99 TTFT no more than 10 % worse than baseline"))
	})

	It("reads a tolerance on one breakdown value and names its spec after the value", func() {
		c := mustParse(edit(0, "baseline:\n  base_url: http://127.0.0.1:9\n  model: old\n  tolerances:\n    ttft_p99[adapter=sql]: 10%\n    error_rate[modality=image]: 0.02"))
		Expect(c.Baseline.Tolerances).To(Equal([]compare.Tolerance{{Name: "ttft_p99[adapter=sql]", Value: 0.1}, {Name: "error_rate[modality=image]", Value: 0.02}}))
		Expect(c.Location("baseline.tolerances.ttft_p99[adapter=sql]").LineNumber).To(Equal(14))
		Expect(suites.ComparisonName(c.Baseline.Tolerances[0])).To(Equal("adapter sql: p99 TTFT no more than 10 % worse than baseline"))
		Expect(suites.ComparisonName(c.Baseline.Tolerances[1])).To(Equal("modality image: error rate no more than 2 points above baseline"))
	})

	It("defaults to rounds until decided (at most 20), fresh engines and failing an inconclusive comparison", func() {
		c := mustParse(edit(0, "baseline:\n  engine:\n    kind: simengine\n    args: [--step-base=10ms]"))
		Expect(c.Baseline.Rounds).To(Equal(ab.RoundsAuto))
		Expect(c.Baseline.MaxRounds).To(Equal(20))
		Expect(c.Baseline.Decide).To(BeNil())
		Expect(c.Baseline.Engine.Args).To(Equal([]string{"--step-base=10ms"}))
		Expect(c.Baseline.Inconclusive).To(Equal("fail"))
		Expect(c.Baseline.ReuseEngines).To(BeFalse())
	})

	It("reads rounds: auto, max_rounds, max_duration and decide", func() {
		c := mustParse(edit(0, "baseline:\n  base_url: http://x\n  model: m\n  rounds: auto\n  max_rounds: 12\n  max_duration: 30m\n  decide: [attainment]\n  tolerances:\n    attainment: 0.02\n    tpot_p50: 5%"))
		Expect(c.Baseline.Rounds).To(Equal(ab.RoundsAuto))
		Expect(c.Baseline.MaxRounds).To(Equal(12))
		Expect(c.Baseline.MaxDuration).To(Equal(30 * time.Minute))
		Expect(c.Baseline.Decide).To(Equal([]string{"attainment"}))
	})

	It("reads inconclusive: pass and reuse_engines: true", func() {
		c := mustParse(edit(0, "baseline:\n  base_url: http://x\n  model: m\n  inconclusive: pass\n  reuse_engines: true"))
		Expect(c.Baseline.Inconclusive).To(Equal("pass"))
		Expect(c.Baseline.ReuseEngines).To(BeTrue())
	})

	DescribeTable("names the file, line and field of a bad baseline",
		func(text, want string) {
			_, err := suites.Parse(inline, []byte(edit(0, text)))
			Expect(err).To(MatchError(ContainSubstring(want)))
		},
		Entry("no engine", "baseline:\n  rounds: 3", "testdata/inline.yaml:11:3: baseline.engine: required"),
		Entry("unknown statistic", "baseline:\n  base_url: http://x\n  model: m\n  tolerances:\n    cost_p50: 5%", "testdata/inline.yaml:14:5: baseline.tolerances.cost_p50: tolerance"),
		Entry("unknown breakdown dimension", "baseline:\n  base_url: http://x\n  model: m\n  tolerances:\n    ttft_p99[gpu=a]: 5%", "testdata/inline.yaml:14:5: baseline.tolerances.ttft_p99[gpu=a]: tolerance \"ttft_p99[gpu=a]=5%\": statistic \"ttft_p99[gpu=a]\": unknown breakdown dimension \"gpu\""),
		Entry("bad value", "baseline:\n  base_url: http://x\n  model: m\n  tolerances:\n    ttft_p99: lots", "testdata/inline.yaml:14:5: baseline.tolerances.ttft_p99"),
		Entry("zero rounds", "baseline:\n  base_url: http://x\n  model: m\n  rounds: 0", "baseline.rounds"),
		Entry("bad inconclusive", "baseline:\n  base_url: http://x\n  model: m\n  inconclusive: maybe", "testdata/inline.yaml:13:17: baseline.inconclusive: want fail or pass, got \"maybe\""),
		Entry("bad reuse_engines", "baseline:\n  base_url: http://x\n  model: m\n  reuse_engines: often", "baseline.reuse_engines: want true or false"),
		Entry("unknown field", "baseline:\n  base_url: http://x\n  model: m\n  order: ab", "baseline.order: unknown field"),
		Entry("max_rounds below the first look", "baseline:\n  base_url: http://x\n  model: m\n  max_rounds: 3", "testdata/inline.yaml:13:15: baseline.max_rounds: want at least 4 with rounds: auto"),
		Entry("a deciding statistic not compared", "baseline:\n  base_url: http://x\n  model: m\n  decide: [tpot_p50]\n  tolerances:\n    attainment: 0.02", "baseline.decide: decide: the deciding statistic \"tpot_p50\" is not compared (compared: attainment)"),
	)
})
