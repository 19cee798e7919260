package suites_test

import (
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/servebench/servebench/servebench/schedule"
	"github.com/servebench/servebench/suites"
)

var _ = Describe("the history field", func() {
	It("reads engine and workload, and leaves it empty (engine) when absent", func() {
		c, err := suites.Parse(inline, []byte(minimal+"history: workload\n"))
		Expect(err).NotTo(HaveOccurred())
		Expect(c.TurnHistory).To(Equal(schedule.TurnHistoryWorkload))
		c, err = suites.Parse(inline, []byte(minimal+"history: engine\n"))
		Expect(err).NotTo(HaveOccurred())
		Expect(c.TurnHistory).To(Equal(schedule.TurnHistoryEngine))
		c, err = suites.Parse(inline, []byte(minimal))
		Expect(err).NotTo(HaveOccurred())
		Expect(c.TurnHistory).To(BeEmpty())
	})

	DescribeTable("names the file, line and field of a bad value",
		func(text, want string) {
			_, err := suites.Parse(inline, []byte(text))
			Expect(err).To(HaveOccurred())
			Expect(strings.Split(err.Error(), "\n")).To(Equal([]string{want}))
		},
		Entry("an unknown mode", minimal+"history: answers\n",
			`testdata/inline.yaml:10:10: history: want engine or workload, got "answers"`),
		Entry("a list", minimal+"history: [engine]\n",
			`testdata/inline.yaml:10:10: history: want a string, got a list`),
		Entry("a think time below 0", strings.Replace(minimal, "  process: constant\n  rate: 5\n", "  process: closed\n  users: 2\n  think_time: -5ms\n", 1),
			`testdata/inline.yaml:9:15: arrival.think_time: want a positive duration with a unit, like 300ms or 2s; got "-5ms"`),
	)
})
