package ollama_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"regexp"
	"strings"
	"time"

	. "github.com/onsi/gomega"

	"github.com/servebench/servebench/servebench/sse"
)

// rawStream is one streamed response as it came off the wire.
type rawStream struct {
	status int
	header http.Header
	// events holds the data of every event, in order ("[DONE]" included).
	events []string
	// closed is true when the body ended (io.EOF) after the last event.
	closed bool
	body   []byte // the whole body of a non-2xx answer
}

// streamChunk is the part of an OpenAI streaming chunk the specs read.
type streamChunk struct {
	Object  string `json:"object"`
	Choices []struct {
		Index int    `json:"index"`
		Text  string `json:"text"`
		Delta *struct {
			Role    *string `json:"role"`
			Content *string `json:"content"`
		} `json:"delta"`
		FinishReason *string `json:"finish_reason"`
	} `json:"choices"`
	Usage *struct {
		PromptTokens     int `json:"prompt_tokens"`
		CompletionTokens int `json:"completion_tokens"`
		TotalTokens      int `json:"total_tokens"`
	} `json:"usage"`
}

// post sends body to path and reads the whole answer, as an event stream
// when it is one.
func post(baseURL, path string, body map[string]any) rawStream {
	data, err := json.Marshal(body)
	Expect(err).NotTo(HaveOccurred())
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, baseURL+path, bytes.NewReader(data))
	Expect(err).NotTo(HaveOccurred())
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	Expect(err).NotTo(HaveOccurred())
	defer resp.Body.Close()
	out := rawStream{status: resp.StatusCode, header: resp.Header}
	if resp.StatusCode != http.StatusOK {
		out.body, err = io.ReadAll(resp.Body)
		Expect(err).NotTo(HaveOccurred())
		return out
	}
	r := sse.NewReader(resp.Body)
	for {
		ev, err := r.Next()
		if errors.Is(err, io.EOF) {
			out.closed = true
			return out
		}
		Expect(err).NotTo(HaveOccurred())
		if ev.Kind == sse.KindEvent {
			out.events = append(out.events, string(ev.Data))
		}
	}
}

// chunks decodes every event before the final "[DONE]", which must be the
// last event.
func (s rawStream) chunks() []streamChunk {
	Expect(s.status).To(Equal(http.StatusOK))
	Expect(s.events).NotTo(BeEmpty())
	Expect(s.events[len(s.events)-1]).To(Equal("[DONE]"), "the last event must be [DONE]")
	var out []streamChunk
	for i, data := range s.events[:len(s.events)-1] {
		Expect(data).NotTo(Equal("[DONE]"), "[DONE] at event %d is not last", i)
		var c streamChunk
		Expect(json.Unmarshal([]byte(data), &c)).To(Succeed(), "event %d: %s", i, data)
		out = append(out, c)
	}
	return out
}

// text returns the chunk's text (completions) or delta content (chat).
func (c streamChunk) text() string {
	if len(c.Choices) == 0 {
		return ""
	}
	if c.Choices[0].Delta != nil {
		if c.Choices[0].Delta.Content != nil {
			return *c.Choices[0].Delta.Content
		}
		return ""
	}
	return c.Choices[0].Text
}

// finish returns the chunk's finish_reason, "" when null or absent.
func (c streamChunk) finish() string {
	if len(c.Choices) == 0 || c.Choices[0].FinishReason == nil {
		return ""
	}
	return *c.Choices[0].FinishReason
}

// streamShape splits a stream into content chunks, the finish chunk and the
// usage chunk, checking their order: content chunks (non-empty text, no
// finish_reason), exactly one finish chunk with empty text, and, when
// usage was asked for, exactly one usage chunk with empty choices.
type streamShape struct {
	content []streamChunk
	finish  streamChunk
	usage   *streamChunk
}

func shapeOf(cs []streamChunk, wantUsage bool) streamShape {
	var s streamShape
	i := 0
	for ; i < len(cs) && len(cs[i].Choices) > 0 && cs[i].finish() == ""; i++ {
		Expect(cs[i].text()).NotTo(BeEmpty(), "chunk %d has choices, no finish_reason and no text", i)
		s.content = append(s.content, cs[i])
	}
	Expect(i).To(BeNumerically("<", len(cs)), "no finish chunk")
	s.finish = cs[i]
	Expect(s.finish.text()).To(BeEmpty(), "the finish chunk carries text")
	i++
	if wantUsage {
		Expect(i).To(BeNumerically("<", len(cs)), "no usage chunk after the finish chunk")
		Expect(cs[i].Choices).To(BeEmpty(), "the usage chunk has choices")
		Expect(cs[i].Usage).NotTo(BeNil())
		s.usage = &cs[i]
		i++
	}
	Expect(i).To(Equal(len(cs)), "events after the %s chunk", map[bool]string{true: "usage", false: "finish"}[wantUsage])
	return s
}

// ginLine matches Ollama's request log: status, latency, client, method and
// path, e.g. `[GIN] 2026/01/02 - 15:04:05 | 200 |   13.672828ms |       127.0.0.1 | POST     "/v1/chat/completions"`.
var ginLine = regexp.MustCompile(`\[GIN\] [^|]+\|\s*(\d+)\s*\|\s*(\S+)\s*\|\s*(\S+)\s*\|\s*(\S+)\s+"([^"]+)"`)

// ginEntry is one request as Ollama logged it.
type ginEntry struct {
	status  string
	latency time.Duration
	path    string
}

// ginEntries returns the requests for path in Ollama's log, in order.
func ginEntries(log, path string) []ginEntry {
	var out []ginEntry
	for _, line := range strings.Split(log, "\n") {
		m := ginLine.FindStringSubmatch(line)
		if m == nil || m[5] != path {
			continue
		}
		d, err := time.ParseDuration(m[2])
		Expect(err).NotTo(HaveOccurred(), "latency in %q", line)
		out = append(out, ginEntry{status: m[1], latency: d, path: m[5]})
	}
	return out
}
