package ollama_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/servebench/servebench/containers/ollama"
	"github.com/servebench/servebench/servebench/openai"
	"github.com/servebench/servebench/servebench/record"
)

// clientFor is a streaming servebench client for an Ollama engine, with
// the engine's declared length control.
func clientFor(e *ollama.Local, endpoint record.Endpoint) *openai.Client {
	return &openai.Client{
		BaseURL:           e.BaseURL(),
		Model:             e.Model(),
		Endpoint:          endpoint,
		KeepText:          true,
		LengthControl:     ollama.LengthControl(),
		FirstTokenTimeout: 30 * time.Second,
		TotalTimeout:      time.Minute,
	}
}

// do sends one row and returns its outcome.
func do(c *openai.Client, row record.Request) record.Outcome {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	out := record.Outcome{ID: row.ID, Attempt: 1}
	c.Do(ctx, time.Now(), &row, "e2e-"+row.ID, &out)
	return out
}

func chatRow(id, prompt string, maxTokens int) record.Request {
	return record.Request{ID: id, Messages: []record.Message{{Role: "user", Content: prompt}}, MaxTokens: maxTokens}
}

func seeded(row record.Request, seed int) record.Request {
	row.Extra = map[string]json.RawMessage{"seed": json.RawMessage(fmt.Sprint(seed))}
	return row
}

// expectOrderedClocks checks d ≤ f ≤ every content event ≤ l ≤ e.
func expectOrderedClocks(o record.Outcome) {
	Expect(o.SentMS).NotTo(BeNil())
	Expect(o.FirstContentMS).NotTo(BeNil())
	Expect(o.LastContentMS).NotTo(BeNil())
	Expect(*o.FirstContentMS).To(BeNumerically(">=", *o.SentMS))
	Expect(o.ContentMS[0]).To(Equal(*o.FirstContentMS), "TTFT is not taken at the first content event")
	Expect(o.ContentMS[len(o.ContentMS)-1]).To(Equal(*o.LastContentMS))
	for i := 1; i < len(o.ContentMS); i++ {
		Expect(o.ContentMS[i]).To(BeNumerically(">=", o.ContentMS[i-1]))
	}
	Expect(o.TerminalMS).To(BeNumerically(">=", *o.LastContentMS))
}

var _ = Describe("openai.Client against Ollama", func() {
	It("reads /v1/completions usage from the usage chunk, not the zero usage on every chunk", func() {
		o := do(clientFor(never, record.EndpointCompletions), record.Request{ID: "c1", Prompt: "the sun and the sea", MaxTokens: 10})
		Expect(o.Status).To(Equal(record.StatusSuccess), o.Error)
		Expect(o.OutputTokens).To(HaveValue(Equal(10)))
		Expect(o.TokenCountSource).To(HaveValue(Equal(record.TokensFromUsage)))
		Expect(o.PromptTokens).To(HaveValue(BeNumerically(">", 0)))
		Expect(o.ContentMS).To(HaveLen(10), "one content event per token")
		Expect(o.FinishReason).To(Equal("length"))
		expectOrderedClocks(o)
	})

	It("takes chat TTFT at the first content event (Ollama sends no role-only chunk) and sees one event per token", func() {
		o := do(clientFor(never, record.EndpointChat), chatRow("t1", "write about the world", 24))
		Expect(o.Status).To(Equal(record.StatusSuccess), o.Error)
		Expect(o.OutputTokens).To(HaveValue(Equal(24)))
		Expect(o.ContentMS).To(HaveLen(24))
		Expect(o.FinishReason).To(Equal("length"))
		Expect(o.Text).NotTo(BeNil())
		Expect(strings.TrimSpace(*o.Text)).NotTo(BeEmpty())
		expectOrderedClocks(o)
	})

	It("agrees with Ollama's native API on the number of generated tokens", func() {
		const n = 17
		o := do(clientFor(never, record.EndpointChat), chatRow("n1", "count with me", n))
		Expect(o.OutputTokens).To(HaveValue(Equal(n)))

		var native struct {
			EvalCount    int    `json:"eval_count"`
			EvalDuration int64  `json:"eval_duration"`
			DoneReason   string `json:"done_reason"`
		}
		body := map[string]any{"model": "tiny", "stream": false, "options": map[string]any{"num_predict": n},
			"messages": []map[string]string{{"role": "user", "content": "count with me"}}}
		data, _ := json.Marshal(body)
		resp, err := http.Post(never.BaseURL()+"/api/chat", "application/json", strings.NewReader(string(data)))
		Expect(err).NotTo(HaveOccurred())
		defer resp.Body.Close()
		Expect(json.NewDecoder(resp.Body).Decode(&native)).To(Succeed())
		Expect(native.EvalCount).To(Equal(*o.OutputTokens), "native eval_count vs the client's usage count")
		Expect(native.DoneReason).To(Equal("length"))
		Expect(native.EvalDuration).To(BeNumerically(">", 0))
	})

	It("measures end-to-end latency consistent with Ollama's own request log", func() {
		const k = 5
		before := len(ginEntries(never.LogTail(), "/v1/chat/completions"))
		c := clientFor(never, record.EndpointChat)
		var outs []record.Outcome
		for i := 0; i < k; i++ {
			o := do(c, chatRow(fmt.Sprintf("g%d", i), fmt.Sprintf("the %d men and the city", i), 32))
			Expect(o.Status).To(Equal(record.StatusSuccess), o.Error)
			outs = append(outs, o)
		}
		var logged []ginEntry
		Eventually(func() int {
			logged = ginEntries(never.LogTail(), "/v1/chat/completions")
			return len(logged)
		}).WithTimeout(10 * time.Second).Should(Equal(before + k))
		logged = logged[before:]
		for i, o := range outs {
			e2e := time.Duration((o.TerminalMS - *o.SentMS) * float64(time.Millisecond))
			ttft := time.Duration((*o.FirstContentMS - *o.SentMS) * float64(time.Millisecond))
			server := logged[i].latency
			GinkgoWriter.Printf("request %d: client TTFT %s, E2E %s; Ollama's logged handler time %s\n", i, ttft, e2e, server)
			Expect(logged[i].status).To(Equal("200"))
			// The client's clock starts before the server's and stops
			// after it (both monotonic on this machine; the log has µs
			// resolution).
			Expect(e2e).To(BeNumerically(">=", server-time.Millisecond), "request %d", i)
			Expect(e2e-server).To(BeNumerically("<", 250*time.Millisecond), "request %d: client and server disagree", i)
			Expect(ttft).To(BeNumerically("<=", e2e))
		}
	})

	It("handles EOS-ended responses: usage counts the EOS token, so OutputTokens is one more than the content events", func() {
		c := clientFor(early, record.EndpointChat)
		stops := 0
		for seed := 1; seed <= 10; seed++ {
			o := do(c, seeded(chatRow(fmt.Sprintf("e%d", seed), fmt.Sprintf("the %d boys", seed), 16), seed))
			Expect(o.OutputTokens).NotTo(BeNil(), "seed %d: %s", seed, o.Error)
			Expect(o.TokenCountSource).To(HaveValue(Equal(record.TokensFromUsage)))
			switch o.FinishReason {
			case "stop":
				stops++
				Expect(*o.OutputTokens).To(Equal(len(o.ContentMS)+1), "seed %d", seed)
				if len(o.ContentMS) == 0 {
					// EOS came first: usage says one token, but nothing
					// visible was produced.
					Expect(o.Status).To(Equal(record.StatusEmptyOutput))
				} else {
					Expect(o.Status).To(Equal(record.StatusSuccess))
				}
			case "length":
				Expect(*o.OutputTokens).To(Equal(16))
				Expect(o.ContentMS).To(HaveLen(16))
			default:
				Fail("finish_reason " + o.FinishReason)
			}
		}
		Expect(stops).To(BeNumerically(">=", 5))
	})

	It("declares a forced length not enforceable, and the EOS-stopping model shows why", func() {
		row := chatRow("f1", "the long answer", 32)
		row.IgnoreEOS = true
		Expect(ollama.LengthControl().Enforces(&row)).To(HaveValue(BeFalse()))
		c := clientFor(early, record.EndpointChat)
		shorter := 0
		for seed := 1; seed <= 6; seed++ {
			o := do(c, seeded(row, seed))
			if o.OutputTokens != nil && *o.OutputTokens < row.MaxTokens {
				shorter++
			}
		}
		Expect(shorter).To(BeNumerically(">=", 4), "rows asking for 32 tokens that got fewer")
	})
})
