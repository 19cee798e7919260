package ollama_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
)

// chatBody is a streamed chat request to model.
func chatBody(model, prompt string, extra map[string]any) map[string]any {
	b := map[string]any{
		"model":          model,
		"messages":       []map[string]string{{"role": "user", "content": prompt}},
		"stream":         true,
		"stream_options": map[string]any{"include_usage": true},
	}
	for k, v := range extra {
		b[k] = v
	}
	return b
}

// completionBody is a streamed completions request to model.
func completionBody(model, prompt string, extra map[string]any) map[string]any {
	b := map[string]any{
		"model":          model,
		"prompt":         prompt,
		"stream":         true,
		"stream_options": map[string]any{"include_usage": true},
	}
	for k, v := range extra {
		b[k] = v
	}
	return b
}

var _ = Describe("Ollama's OpenAI-compatible streams", func() {
	It("sends no role-only chunk on chat: the first event already carries content, and every delta repeats the role", func() {
		s := post(never.BaseURL(), "/v1/chat/completions", chatBody("tiny", "the first day", map[string]any{"max_tokens": 5}))
		cs := s.chunks()
		first := cs[0]
		Expect(first.Choices).To(HaveLen(1))
		Expect(first.Choices[0].Delta.Role).NotTo(BeNil())
		Expect(*first.Choices[0].Delta.Role).To(Equal("assistant"))
		Expect(first.text()).NotTo(BeEmpty(), "the first chat event is role-only")
		for i, c := range cs {
			if len(c.Choices) == 0 {
				continue
			}
			Expect(c.Choices[0].Delta).NotTo(BeNil(), "chunk %d", i)
			Expect(c.Choices[0].Delta.Role).NotTo(BeNil(), "chunk %d has no role", i)
			Expect(*c.Choices[0].Delta.Role).To(Equal("assistant"), "chunk %d", i)
		}
	})

	It("streams one token per event, honours max_tokens exactly and ends with finish, usage, [DONE]", func() {
		for _, n := range []int{1, 7, 20} {
			s := post(never.BaseURL(), "/v1/chat/completions", chatBody("tiny", fmt.Sprintf("a story of %d words", n), map[string]any{"max_tokens": n}))
			shape := shapeOf(s.chunks(), true)
			Expect(shape.content).To(HaveLen(n), "content events for max_tokens %d", n)
			Expect(shape.finish.finish()).To(Equal("length"))
			Expect(shape.usage.Usage.CompletionTokens).To(Equal(n))
			Expect(shape.usage.Usage.PromptTokens).To(BeNumerically(">", 0))
			Expect(shape.usage.Usage.TotalTokens).To(Equal(shape.usage.Usage.PromptTokens + n))
			Expect(s.closed).To(BeTrue(), "the stream stays open after [DONE]")
			Expect(s.header.Get("Content-Type")).To(HavePrefix("text/event-stream"))
		}
	})

	It("puts a usage object of zeros on every /v1/completions chunk that has choices; the real usage has empty choices", func() {
		const n = 9
		s := post(never.BaseURL(), "/v1/completions", completionBody("tiny", "the river and the sea", map[string]any{"max_tokens": n}))
		cs := s.chunks()
		shape := shapeOf(cs, true)
		Expect(shape.content).To(HaveLen(n))
		for i, c := range cs {
			if len(c.Choices) == 0 {
				continue
			}
			Expect(c.Object).To(Equal("text_completion"))
			Expect(c.Usage).NotTo(BeNil(), "chunk %d has no usage object", i)
			Expect(*c.Usage).To(BeZero(), "chunk %d usage", i)
		}
		Expect(shape.usage.Usage.CompletionTokens).To(Equal(n))
		Expect(shape.finish.finish()).To(Equal("length"))
	})

	It("sends no usage chunk without stream_options.include_usage, and still ends with [DONE]", func() {
		body := chatBody("tiny", "no usage please", map[string]any{"max_tokens": 3})
		delete(body, "stream_options")
		shape := shapeOf(post(never.BaseURL(), "/v1/chat/completions", body).chunks(), false)
		Expect(shape.content).To(HaveLen(3))
	})

	It("ignores max_completion_tokens: the Modelfile's num_predict caps the output instead", func() {
		s := post(never.BaseURL(), "/v1/chat/completions", chatBody("tiny", "how long", map[string]any{"max_completion_tokens": 4}))
		shape := shapeOf(s.chunks(), true)
		Expect(shape.usage.Usage.CompletionTokens).To(Equal(numPredict))
		Expect(shape.content).To(HaveLen(numPredict))
		Expect(shape.finish.finish()).To(Equal("length"))
	})

	It("answers an unknown model with 404 and a JSON error", func() {
		s := post(never.BaseURL(), "/v1/chat/completions", chatBody("no-such-model", "hi", map[string]any{"max_tokens": 2}))
		Expect(s.status).To(Equal(http.StatusNotFound))
		var e struct {
			Error struct {
				Message string `json:"message"`
			} `json:"error"`
		}
		Expect(json.Unmarshal(s.body, &e)).To(Succeed(), "body %s", s.body)
		Expect(e.Error.Message).To(ContainSubstring("no-such-model"))
	})
})

var _ = Describe("Ollama and the end-of-sequence token", func() {
	It("ignores ignore_eos: requests still stop at EOS before max_tokens", func() {
		const maxTokens = 64
		stopped := 0
		for seed := 1; seed <= 8; seed++ {
			s := post(early.BaseURL(), "/v1/chat/completions", chatBody("early", fmt.Sprintf("tell me %d things", seed),
				map[string]any{"max_tokens": maxTokens, "ignore_eos": true, "seed": seed}))
			shape := shapeOf(s.chunks(), true)
			if shape.finish.finish() == "stop" {
				Expect(shape.usage.Usage.CompletionTokens).To(BeNumerically("<", maxTokens))
				stopped++
			}
		}
		// With EOS bias 6 the mean length is about 7 tokens; a request
		// reaching 64 tokens would need EOS to be passed over 64 times.
		Expect(stopped).To(BeNumerically(">=", 6), "requests that stopped at EOS despite ignore_eos")
	})

	It("counts the EOS token in completion_tokens: one more than the content events of a stopped request", func() {
		stops, lengths := 0, 0
		for seed := 1; seed <= 12; seed++ {
			s := post(early.BaseURL(), "/v1/completions", completionBody("early", fmt.Sprintf("the %d day of the year", seed),
				map[string]any{"max_tokens": 12, "seed": seed}))
			shape := shapeOf(s.chunks(), true)
			switch shape.finish.finish() {
			case "stop":
				stops++
				Expect(shape.usage.Usage.CompletionTokens).To(Equal(len(shape.content)+1), "seed %d: %d content events", seed, len(shape.content))
			case "length":
				lengths++
				Expect(shape.usage.Usage.CompletionTokens).To(Equal(12))
				Expect(shape.content).To(HaveLen(12))
			default:
				Fail("finish_reason " + shape.finish.finish())
			}
		}
		Expect(stops).To(BeNumerically(">=", 6))
		GinkgoWriter.Printf("12 requests: %d stopped at EOS, %d ran to max_tokens\n", stops, lengths)
	})

	It("streams only printable text: the generated model never samples control or byte tokens", func() {
		s := post(never.BaseURL(), "/v1/completions", completionBody("tiny", "print", map[string]any{"max_tokens": 40, "seed": 3}))
		for _, c := range shapeOf(s.chunks(), true).content {
			Expect(strings.ContainsFunc(c.text(), func(r rune) bool { return r < ' ' || r > '~' })).To(BeFalse(), "event text %q", c.text())
		}
	})
})
