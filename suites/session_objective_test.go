package suites_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/servebench/servebench/suites"
)

var _ = Describe("the sessions objective", func() {
	It("is read as two fractions and judged per load point", func() {
		c, err := suites.Parse(inline, []byte(minimal+"objectives:\n  sessions: {attainment: 0.95, wilson_lower: 0.9}\n"))
		Expect(err).NotTo(HaveOccurred())
		Expect(c.Objectives.Sessions).To(Equal(&suites.SessionObjective{Attainment: f(0.95), WilsonLower: f(0.9)}))
		objectives := c.PointObjectives(c.Points()[0])
		n := len(objectives)
		Expect(objectives[n-2].Name).To(Equal("session attainment >= 0.950"))
		Expect(objectives[n-2].Field).To(Equal("objectives.sessions.attainment"))
		Expect(objectives[n-1].Name).To(Equal("session Wilson lower bound >= 0.900"))
		Expect(objectives[n-1].Field).To(Equal("objectives.sessions.wilson_lower"))
	})

	DescribeTable("names the line and field of a bad declaration",
		func(text, want string) {
			_, err := suites.Parse(inline, []byte(minimal+"objectives:\n  sessions: "+text+"\n"))
			Expect(err).To(MatchError(want))
		},
		Entry("a bound above 1", "{attainment: 1.5}", `testdata/inline.yaml:11:26: objectives.sessions.attainment: want a fraction in [0, 1], got 1.5`),
		Entry("a bound below 0", "{wilson_lower: -0.1}", `testdata/inline.yaml:11:28: objectives.sessions.wilson_lower: want a fraction in [0, 1], got -0.1`),
		Entry("an unknown field", "{p99: 1}", `testdata/inline.yaml:11:14: objectives.sessions.p99: unknown field (known: attainment, wilson_lower)`),
		Entry("no bound", "{}", `testdata/inline.yaml:11:13: objectives.sessions: declare attainment, wilson_lower or both`),
	)
})
