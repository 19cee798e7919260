package openai

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/servebench/servebench/internal/ssetest"
	"github.com/servebench/servebench/servebench/record"
)

// decodeSlow decodes data as the client did before the fast path.
func decodeSlow(t *testing.T, data string) wireChunk {
	t.Helper()
	var c wireChunk
	c.reset()
	if err := json.Unmarshal([]byte(data), &c); err != nil {
		t.Fatalf("%s: %v", data, err)
	}
	return c
}

// sameChunk compares what the client reads of two decoded chunks.
func sameChunk(a, b *wireChunk) bool {
	if len(a.Choices) != len(b.Choices) || (a.Usage == nil) != (b.Usage == nil) {
		return false
	}
	for i := range a.Choices {
		if !reflect.DeepEqual(a.Choices[i], b.Choices[i]) {
			return false
		}
	}
	if a.Usage != nil && *a.Usage != *b.Usage {
		return false
	}
	ae, aErr := a.errorMessage()
	be, bErr := b.errorMessage()
	return ae == be && aErr == bErr
}

// TestDecodeChunkFastAgreesWithEncodingJSON decodes the chunks engines
// send most (vLLM, SGLang, llama.cpp, Ollama shapes) with the fast path,
// which must take each one and read what encoding/json reads.
func TestDecodeChunkFastAgreesWithEncodingJSON(t *testing.T) {
	for _, data := range []string{
		`{"id":"cmpl-1","object":"text_completion","created":1733000000,"model":"m","choices":[{"index":0,"text":" tok","logprobs":null,"finish_reason":null,"stop_reason":null}],"usage":null}`,
		`{"id":"cmpl-1","object":"text_completion","choices":[{"index":0,"text":"","finish_reason":"length"}]}`,
		`{"id":"cmpl-1","object":"text_completion","choices":[],"usage":{"prompt_tokens":8,"completion_tokens":64,"total_tokens":72}}`,
		`{"id":"chatcmpl-1","object":"chat.completion.chunk","created":1,"model":"m","system_fingerprint":null,"choices":[{"index":0,"delta":{"role":"assistant","content":""},"logprobs":null,"finish_reason":null}]}`,
		`{"id":"c","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"content":" world"},"finish_reason":null}]}`,
		`{"id":"c","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"reasoning_content":"think","content":null},"finish_reason":null}]}`,
		`{"id":"c","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"reasoning":"r"}}]}`,
		`{"id":"c","choices":[{"index":0,"delta":{},"finish_reason":"stop","stop_reason":128001}],"usage":{"prompt_tokens":5,"completion_tokens":null,"total_tokens":5,"prompt_tokens_details":null}}`,
		`{"id":"c","choices":[{"index":1,"text":"b"},{"index":0,"text":"a"}]}`,
		` { "id" : "c" , "choices" : [ { "index" : 0 , "text" : "x" } ] } `,
		`{"choices":[{"index":0,"text":"x"}],"usage":{"prompt_tokens":-1,"completion_tokens":3}}`,
		`{"choices":null}`,
	} {
		slow := decodeSlow(t, data)
		var fast wireChunk
		fast.reset()
		if !decodeChunkFast([]byte(data), &fast) {
			t.Errorf("the fast path did not take %s", data)
			continue
		}
		if !sameChunk(&fast, &slow) {
			t.Errorf("%s:\nfast %+v usage %+v\nslow %+v usage %+v", data, fast.Choices, fast.Usage, slow.Choices, slow.Usage)
		}
	}
}

// TestDecodeChunkFastLeavesTheRestToEncodingJSON refuses what it does not
// read: tool calls, logprobs, escapes, non-ASCII text, error objects,
// token details, unknown fields and malformed JSON.
func TestDecodeChunkFastLeavesTheRestToEncodingJSON(t *testing.T) {
	for _, data := range []string{
		`{"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"name":"f","arguments":"{}"}}]}}]}`,
		`{"choices":[{"index":0,"text":"a","logprobs":{"tokens":["a"]}}]}`,
		`{"choices":[{"index":0,"text":"a\"b"}]}`,
		`{"choices":[{"index":0,"text":"héllo"}]}`,
		`{"error":{"message":"overloaded","code":503}}`,
		`{"object":"error","message":"bad"}`,
		`{"choices":[],"usage":{"prompt_tokens":1,"completion_tokens_details":{"reasoning_tokens":3}}}`,
		`{"choices":[{"index":0,"text":"a","matched_stop":null}]}`,
		`{"choices":[{"index":0,"text":"a"}]`,
		`{"choices":[{"index":0,"text":"a"}]} x`,
		`{"choices":[{"index":0.5,"text":"a"}]}`,
	} {
		var c wireChunk
		c.reset()
		if decodeChunkFast([]byte(data), &c) {
			t.Errorf("the fast path took %s", data)
		}
	}
}

// TestKeptTextSurvivesTheReaderBuffer streams 600 chat, completions and
// Responses deltas, each with its own text, in one burst and then split
// across writes, so that the event reader's buffer is refilled and
// shifted many times: the text the fast paths read without a copy must be
// folded into the kept answer before the bytes under it change, and the
// finish reason, kept past its event, must be a copy.
func TestKeptTextSurvivesTheReaderBuffer(t *testing.T) {
	const events = 600
	var want strings.Builder
	for i := range events {
		fmt.Fprintf(&want, "<%03d>", i)
	}
	for _, split := range []int{0, 7} {
		for _, endpoint := range []record.Endpoint{record.EndpointChat, record.EndpointCompletions, record.EndpointResponses} {
			srv := ssetest.New(t, func(w *ssetest.Writer) {
				w.StreamHeader()
				b := keptTextStream(endpoint, events)
				for len(b) > 0 {
					n := len(b)
					if split > 0 {
						n = min(n, 4096+split)
					}
					w.Raw(b[:n])
					w.Flush()
					b = b[n:]
				}
			})
			c := &Client{BaseURL: srv.URL, Model: "m", Endpoint: endpoint, KeepText: true}
			row := &record.Request{ID: "r", Messages: []record.Message{{Role: "user", Content: "p"}}, MaxTokens: events}
			if endpoint == record.EndpointCompletions {
				row = &record.Request{ID: "r", Prompt: "p", MaxTokens: events}
			}
			wantFinish := "length"
			if endpoint == record.EndpointResponses {
				wantFinish = "stop" // what a completed response ends with
			}
			out := &record.Outcome{ID: "r", Attempt: 1}
			c.Do(context.Background(), srv.Epoch, row, "run/r/1", out)
			if out.Status != record.StatusSuccess || out.Text == nil || *out.Text != want.String() ||
				len(out.ContentMS) != events || out.FinishReason != wantFinish {
				t.Fatalf("%s, split %d: %s %q, %d content events, finish %q, text %d bytes (want %d)",
					endpoint, split, out.Status, out.Error, len(out.ContentMS), out.FinishReason, len(ptrText(out.Text)), want.Len())
			}
		}
	}
}

// keptTextStream is a whole stream of n deltas "<000>", "<001>", ... for
// the endpoint, with its finish and usage, as one string.
func keptTextStream(endpoint record.Endpoint, n int) string {
	var all strings.Builder
	if endpoint == record.EndpointResponses {
		seq := 0
		event := func(typ, fields string) {
			fmt.Fprintf(&all, "event: %s\ndata: {\"type\":%q,\"sequence_number\":%d%s}\n\n", typ, typ, seq, fields)
			seq++
		}
		event("response.created", `,"response":{"status":"in_progress"}`)
		for i := range n {
			event("response.output_text.delta", fmt.Sprintf(`,"item_id":"msg_1","output_index":0,"content_index":0,"delta":"<%03d>","logprobs":[]`, i))
		}
		event("response.completed", fmt.Sprintf(`,"response":{"status":"completed","usage":{"input_tokens":4,"output_tokens":%d}}`, n))
		return all.String()
	}
	for i := range n {
		text := fmt.Sprintf("<%03d>", i)
		if endpoint == record.EndpointChat {
			all.WriteString("data: " + ssetest.ChatContent(text) + "\n\n")
		} else {
			all.WriteString("data: " + ssetest.TextChunk(text, nil, nil) + "\n\n")
		}
	}
	if endpoint == record.EndpointChat {
		all.WriteString("data: " + ssetest.ChatFinish("length") + "\n\n")
	} else {
		all.WriteString("data: " + ssetest.TextChunk("", nil, "length") + "\n\n")
	}
	all.WriteString("data: " + ssetest.UsageChunk(4, n) + "\n\ndata: [DONE]\n\n")
	return all.String()
}

// ptrText is *p, or "" for nil.
func ptrText(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}
