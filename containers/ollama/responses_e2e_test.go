package ollama_test

import (
	"encoding/json"
	"net/http"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/servebench/servebench/servebench/record"
)

// respEvent is one typed event of a raw /v1/responses stream.
type respEvent struct {
	Type           string `json:"type"`
	SequenceNumber *int   `json:"sequence_number"`
	Delta          string `json:"delta"`
	Response       *struct {
		Status            string `json:"status"`
		IncompleteDetails *struct {
			Reason string `json:"reason"`
		} `json:"incomplete_details"`
		Usage *struct {
			InputTokens  int `json:"input_tokens"`
			OutputTokens int `json:"output_tokens"`
		} `json:"usage"`
	} `json:"response"`
}

// respEvents decodes a raw Responses stream.
func respEvents(s rawStream) []respEvent {
	Expect(s.status).To(Equal(http.StatusOK), string(s.body))
	out := make([]respEvent, len(s.events))
	for i, data := range s.events {
		Expect(json.Unmarshal([]byte(data), &out[i])).To(Succeed(), "event %d: %s", i, data)
	}
	return out
}

var _ = Describe("Ollama's Responses API and embeddings", func() {
	It("streams typed events in sequence with usage in the terminal event, and the client's clocks and counts agree", func() {
		const n = 12
		body := map[string]any{"model": "tiny", "input": "the long road home", "max_output_tokens": n, "stream": true, "store": false}
		evs := respEvents(post(never.BaseURL(), "/v1/responses", body))
		deltas := 0
		for i, ev := range evs {
			Expect(ev.SequenceNumber).NotTo(BeNil(), "event %d (%s) has no sequence_number", i, ev.Type)
			Expect(*ev.SequenceNumber).To(Equal(*evs[0].SequenceNumber+i), "event %d out of sequence", i)
			if ev.Type == "response.output_text.delta" && ev.Delta != "" {
				deltas++
			}
		}
		last := evs[len(evs)-1]
		GinkgoWriter.Printf("Ollama's Responses stream: %d events, %d text deltas, ends with %s\n", len(evs), deltas, last.Type)
		Expect(last.Response).NotTo(BeNil())
		Expect(last.Response.Usage).NotTo(BeNil())
		Expect(last.Response.Usage.OutputTokens).To(Equal(n))

		c := clientFor(never, record.EndpointResponses)
		o := do(c, record.Request{ID: "r1", Prompt: "the long road home", MaxTokens: n})
		Expect(o.Status).To(Equal(record.StatusSuccess), o.Error)
		// The never-EOS model runs to the cap: usage says n tokens, one
		// text delta each, as the raw stream showed.
		Expect(o.OutputTokens).To(HaveValue(Equal(n)))
		Expect(o.TokenCountSource).To(HaveValue(Equal(record.TokensFromUsage)))
		Expect(o.PromptTokens).To(HaveValue(Equal(last.Response.Usage.InputTokens)))
		Expect(o.ContentMS).To(HaveLen(deltas))
		Expect(o.FinishReason).To(BeElementOf("length", "stop"))
		expectOrderedClocks(o)
	})

	It("sends a multi-turn conversation as input items, statelessly", func() {
		c := clientFor(never, record.EndpointResponses)
		row := record.Request{ID: "m1", MaxTokens: 6, Messages: []record.Message{
			{Role: "system", Content: "be brief"}, {Role: "user", Content: "the sea"}, {Role: "assistant", Content: "is wide"}, {Role: "user", Content: "and the sky"}}}
		o := do(c, row)
		Expect(o.Status).To(Equal(record.StatusSuccess), o.Error)
		Expect(o.OutputTokens).To(HaveValue(Equal(6)))
		Expect(strings.TrimSpace(*o.Text)).NotTo(BeEmpty())
	})

	It("answers /v1/embeddings with one vector per input, all of one dimension, with usage", func() {
		var native struct {
			Data []struct {
				Embedding []float64 `json:"embedding"`
			} `json:"data"`
			Usage struct {
				PromptTokens int `json:"prompt_tokens"`
			} `json:"usage"`
		}
		s := postJSON(never.BaseURL()+"/v1/embeddings", map[string]any{"model": "tiny", "input": []string{"the first", "a second text", "and a third one"}})
		Expect(json.Unmarshal(s, &native)).To(Succeed(), string(s))
		Expect(native.Data).To(HaveLen(3))
		dim := len(native.Data[0].Embedding)
		GinkgoWriter.Printf("Ollama's embeddings: dimension %d, %d prompt tokens\n", dim, native.Usage.PromptTokens)

		c := clientFor(never, record.EndpointEmbeddings)
		o := do(c, record.Request{ID: "e1", Input: &record.TextInput{Texts: []string{"the first", "a second text", "and a third one"}, Batch: true}})
		Expect(o.Status).To(Equal(record.StatusSuccess), o.Error)
		Expect(o.Items).To(HaveValue(Equal(3)))
		Expect(o.FirstContentMS).To(BeNil(), "embeddings have no first token")
		Expect(o.ContentMS).To(BeEmpty())
		if native.Usage.PromptTokens > 0 {
			Expect(o.PromptTokens).To(HaveValue(Equal(native.Usage.PromptTokens)))
		}
		Expect(o.TerminalMS).To(BeNumerically(">=", *o.SentMS))
	})
})

// postJSON posts body and returns the whole answer, which must be 200.
func postJSON(url string, body map[string]any) []byte {
	data, err := json.Marshal(body)
	Expect(err).NotTo(HaveOccurred())
	resp, err := http.Post(url, "application/json", strings.NewReader(string(data)))
	Expect(err).NotTo(HaveOccurred())
	defer resp.Body.Close()
	var out json.RawMessage
	Expect(json.NewDecoder(resp.Body).Decode(&out)).To(Succeed())
	Expect(resp.StatusCode).To(Equal(http.StatusOK), string(out))
	return out
}
