package suites_test

import (
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/servebench/servebench/servebench/openai"
	"github.com/servebench/servebench/suites"
)

var _ = Describe("the adapters field", func() {
	It("reads a weighted mix, normalised to sum to 1", func() {
		c, err := suites.Parse(inline, []byte(minimal+"adapters: {sql: 5, chat: 3, base: 2}\n"))
		Expect(err).NotTo(HaveOccurred())
		Expect(c.LoRA.Mix.Names).To(Equal([]string{"base", "chat", "sql"}))
		Expect(c.LoRA.Mix.Weights).To(Equal([]float64{0.2, 0.3, 0.5}))
		Expect(c.AdapterForm).To(Equal(openai.AdapterByName))
	})

	It("has no mix when absent", func() {
		c, err := suites.Parse(inline, []byte(minimal))
		Expect(err).NotTo(HaveOccurred())
		Expect(c.LoRA.Mix).To(BeNil())
	})

	It("names adapters BASE:ADAPTER for an SGLang engine", func() {
		c, err := suites.Parse(inline, []byte(strings.Replace(minimal, "kind: simengine", "kind: sglang\n  image: lmsysorg/sglang:latest\n  model: m", 1)+"adapters: {sql: 1}\n"))
		Expect(err).NotTo(HaveOccurred())
		Expect(c.AdapterForm).To(Equal(openai.AdapterBaseColon))
	})

	DescribeTable("names the file, line and field of a bad weight",
		func(line, want string) {
			_, err := suites.Parse(inline, []byte(minimal+line+"\n"))
			Expect(err).To(HaveOccurred())
			Expect(strings.Split(err.Error(), "\n")).To(Equal([]string{want}))
		},
		Entry("zero", "adapters: {sql: 0.5, chat: 0}",
			`testdata/inline.yaml:10:28: adapters.chat: want a weight greater than 0, got 0`),
		Entry("negative", "adapters:\n  sql: -1",
			`testdata/inline.yaml:11:8: adapters.sql: want a weight greater than 0, got -1`),
		Entry("not a number", "adapters: {sql: lots}",
			`testdata/inline.yaml:10:17: adapters.sql: want a number, got "lots"`),
		Entry("not a mapping", "adapters: [sql]",
			`testdata/inline.yaml:10:11: adapters: want a mapping of adapter names to positive weights, got a list`),
	)
})
