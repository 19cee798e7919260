package suites_test

import (
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/servebench/servebench/suites"
)

var _ = Describe("the fairness objective", func() {
	It("is read as a dimension and a bound and judged per load point", func() {
		c, err := suites.Parse(inline, []byte(minimal+"objectives:\n  fairness: {dimension: tenant, jain_at_least: 0.9}\n"))
		Expect(err).NotTo(HaveOccurred())
		Expect(c.Objectives.Fairness).To(Equal(&suites.FairnessObjective{Dimension: "tenant", JainAtLeast: 0.9}))
		objectives := c.PointObjectives(c.Points()[0])
		last := objectives[len(objectives)-1]
		Expect(last.Name).To(Equal("Jain's index over tenant >= 0.900"))
		Expect(last.Field).To(Equal("objectives.fairness"))
	})

	DescribeTable("names the line and field of a bad declaration",
		func(text, want string) {
			_, err := suites.Parse(inline, []byte(minimal+"objectives:\n  fairness: "+text+"\n"))
			Expect(err).To(MatchError(want))
		},
		Entry("a Jain bound above 1", "{dimension: tenant, jain_at_least: 1.2}",
			`testdata/inline.yaml:11:48: objectives.fairness.jain_at_least: want a fraction in [0, 1], got 1.2`),
		Entry("an unknown dimension", "{dimension: region, jain_at_least: 0.9}",
			`testdata/inline.yaml:11:25: objectives.fairness.dimension: unknown dimension "region" (want one of class, backend, adapter, tenant, turn, cached_fraction, modality)`),
		Entry("no bound", "{dimension: tenant}",
			`testdata/inline.yaml:11:13: objectives.fairness.jain_at_least: required`),
		Entry("an unknown field", "{dimension: tenant, jain_at_least: 0.9, gini: 0.1}",
			`testdata/inline.yaml:11:53: objectives.fairness.gini: unknown field (known: dimension, jain_at_least)`),
	)
})

var _ = Describe("the shed-order objective", func() {
	It("declares the critical objectives for the scorer and is judged per load point", func() {
		c, err := suites.Parse(inline, []byte(minimal+"objectives:\n  shed_order: {critical: [critical, premium]}\n"))
		Expect(err).NotTo(HaveOccurred())
		Expect(c.Objectives.ShedOrder).To(Equal(&suites.ShedOrderObjective{Critical: []string{"critical", "premium"}}))
		objectives := c.PointObjectives(c.Points()[0])
		last := objectives[len(objectives)-1]
		Expect(last.Name).To(Equal("no critical request shed while a sheddable one is admitted"))
		Expect(last.Field).To(Equal("objectives.shed_order"))
	})

	DescribeTable("names the line and field of a bad declaration",
		func(text, want string) {
			_, err := suites.Parse(inline, []byte(minimal+"objectives:\n  shed_order: "+text+"\n"))
			Expect(err).To(MatchError(ContainSubstring(want)))
		},
		Entry("no critical list", "{}", `testdata/inline.yaml:11:15: objectives.shed_order.critical: required`),
		Entry("an empty list", "{critical: []}", `objectives.shed_order.critical: name at least one critical objective`),
	)
})
