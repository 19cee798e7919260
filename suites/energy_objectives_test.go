package suites_test

import (
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/servebench/servebench/suites"
)

var _ = Describe("energy objectives", func() {
	It("are read in joules, judged per load point, and label the contract gpu", func() {
		c, err := suites.Parse(inline, []byte(minimal+"objectives:\n  joules_per_output_token: 0.5\n  joules_per_qualified_request: 60\n"))
		Expect(err).NotTo(HaveOccurred())
		Expect(c.Objectives.JoulesPerOutputToken).To(Equal(f(0.5)))
		Expect(c.Objectives.JoulesPerQualifiedRequest).To(Equal(f(60)))
		var names, fields []string
		for _, o := range c.PointObjectives(c.Points()[0]) {
			names, fields = append(names, o.Name), append(fields, o.Field)
		}
		Expect(names).To(ContainElements("energy per output token < 0.5 J", "energy per qualified request < 60 J"))
		Expect(fields).To(ContainElements("objectives.joules_per_output_token", "objectives.joules_per_qualified_request"))
		Expect(c.SamplesGPUs()).To(BeTrue())
		Expect(c.AllLabels()).To(Equal([]string{"engine:simengine", "gpu"}))
	})

	It("are not sampled for when neither the engine nor an objective needs a GPU", func() {
		c, err := suites.Parse(inline, []byte(minimal))
		Expect(err).NotTo(HaveOccurred())
		Expect(c.SamplesGPUs()).To(BeFalse())
	})

	DescribeTable("name the line and field of a bad bound",
		func(line, want string) {
			_, err := suites.Parse(inline, []byte(minimal+"objectives:\n"+line+"\n"))
			Expect(err).To(HaveOccurred())
			Expect(strings.Split(err.Error(), "\n")).To(Equal([]string{want}))
		},
		Entry("zero", "  joules_per_output_token: 0",
			`testdata/inline.yaml:11:28: objectives.joules_per_output_token: want an energy in joules above 0, got 0`),
		Entry("negative", "  joules_per_qualified_request: -3",
			`testdata/inline.yaml:11:33: objectives.joules_per_qualified_request: want an energy in joules above 0, got -3`),
		Entry("not a number", "  joules_per_output_token: low",
			`testdata/inline.yaml:11:28: objectives.joules_per_output_token: want a number, got "low"`),
	)
})
