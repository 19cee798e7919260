package suites_test

import (
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/suites"
)

var _ = Describe("EngineAPIs", func() {
	It("declares Ollama's responses and embeddings routes, and no rerank", func() {
		apis, ok := suites.EngineAPIs("ollama")
		Expect(ok).To(BeTrue())
		Expect(apis).To(ContainElements(record.EndpointResponses, record.EndpointEmbeddings))
		Expect(apis).NotTo(ContainElements(record.EndpointRerank, record.EndpointRerankTEI, record.EndpointPairScore))
	})
	It("declares the messages route for vLLM and llama.cpp, and not for SGLang", func() {
		for _, engine := range []string{"vllm", "llamacpp"} {
			apis, _ := suites.EngineAPIs(engine)
			Expect(apis).To(ContainElement(record.EndpointMessages), engine)
		}
		apis, _ := suites.EngineAPIs("sglang")
		Expect(apis).NotTo(ContainElement(record.EndpointMessages))
	})
	It("declares every endpoint for the simulated engine", func() {
		apis, _ := suites.EngineAPIs("simengine")
		Expect(apis).To(Equal(record.Endpoints()))
	})
	It("loads an embeddings contract for the simulated engine", func() {
		c, err := suites.Parse(inline, []byte(strings.Replace(edit(0, "endpoint: embeddings\nslo:\n  e2e: 2s"), "workload.jsonl", "embeddings.jsonl", 1)))
		Expect(err).NotTo(HaveOccurred())
		Expect(c.Endpoint).To(Equal(record.EndpointEmbeddings))
		Expect(c.Workload.Requests).To(HaveLen(2))
	})
})
