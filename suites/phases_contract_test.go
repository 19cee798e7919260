package suites_test

import (
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/servebench/servebench/servebench/schedule"
	"github.com/servebench/servebench/suites"
)

// phased is a contract whose arrival is a plan of three phases.
const phased = `name: phased
engine:
  kind: simengine
workload:
  file: workload.jsonl
arrival:
  process: constant
  phases:
    - {name: steady, duration: 30s, rate: 10}
    - {name: burst, duration: 10s, rate: 40}
    - {name: recovery, duration: 60s, rate: 10}
`

var _ = Describe("arrival phases in a contract", func() {
	It("is one load point at the plan's mean rate, for the plan's length, with recovery_within judged", func() {
		c, err := suites.Parse(inline, []byte(phased+"objectives:\n  recovery_within: 20s\n"))
		Expect(err).NotTo(HaveOccurred())
		Expect(c.Arrival.Phases).To(Equal([]schedule.Phase{{Name: "steady", DurationMS: 30000, RateRPS: 10},
			{Name: "burst", DurationMS: 10000, RateRPS: 40}, {Name: "recovery", DurationMS: 60000, RateRPS: 10}}))
		// (300 + 400 + 600) requests over 100 s.
		Expect(c.Arrival.RateRPS).To(Equal(13.0))
		Expect(c.Duration).To(Equal(100 * time.Second))
		points := c.Points()
		Expect(points).To(HaveLen(1))
		Expect(points[0].RateRPS).To(Equal(13.0))
		objectives := c.PointObjectives(points[0])
		Expect(objectives[len(objectives)-1].Name).To(Equal("recovery after the burst <= 20s"))
		Expect(objectives[len(objectives)-1].Field).To(Equal("objectives.recovery_within"))
	})

	DescribeTable("names the line and field of a bad plan",
		func(text, want string) {
			_, err := suites.Parse(inline, []byte(text))
			Expect(err).To(MatchError(ContainSubstring(want)))
		},
		Entry("a phase with no duration", phased+"    - {name: tail, rate: 5}\n", `testdata/inline.yaml:12:7: arrival.phases[3].duration: required`),
		Entry("a rate of 0", phased+"    - {name: tail, duration: 5s, rate: 0}\n", `testdata/inline.yaml:12:40: arrival.phases[3].rate:`),
		Entry("phases and a rate", phased+"  rate: 5\n", `arrival.phases: give phases or rate (rates), not both`),
		Entry("phases and a count", phased+"count: 10\n", `count: arrival.phases give the load point's length; leave count out`),
		Entry("recovery_within without a burst", minimal+"objectives:\n  recovery_within: 20s\n",
			`objectives.recovery_within: needs arrival.phases with a phase named burst to recover from`),
	)
})
