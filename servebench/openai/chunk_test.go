package openai

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/servebench/servebench/servebench/record"
)

func TestArrayLenCountsTopLevelElements(t *testing.T) {
	cases := map[string]arrayLen{
		`null`:                {},
		`[]`:                  {n: 0, set: true},
		`[ ]`:                 {n: 0, set: true},
		`[" a"]`:              {n: 1, set: true},
		`[" a", " b,", "c]"]`: {n: 3, set: true},
		`["\"", "\\", "[{"]`:  {n: 3, set: true},
		`[{"token":"a","top_logprobs":[{"token":"b"},{"token":"c"}]},{"token":","}]`: {n: 2, set: true},
		`[1, -0.5, null, true, [2, 3]]`:                                              {n: 5, set: true},
		` [0] `:                                                                      {n: 1, set: true},
	}
	for in, want := range cases {
		var got arrayLen
		if err := got.UnmarshalJSON([]byte(in)); err != nil || got != want {
			t.Errorf("%s: got %+v, %v; want %+v", in, got, err, want)
		}
	}
	var a arrayLen
	if err := a.UnmarshalJSON([]byte(`{"a":1}`)); err == nil {
		t.Error("an object was counted as an array")
	}
}

func TestWireChunkDecodesLogprobsOfBothAPIs(t *testing.T) {
	var c wireChunk
	c.reset()
	completions := `{"choices":[{"index":0,"text":" a b","logprobs":{"tokens":[" a"," b"],"token_logprobs":[-1,-2],"top_logprobs":null,"text_offset":[0,2]}}]}`
	if err := json.Unmarshal([]byte(completions), &c); err != nil {
		t.Fatal(err)
	}
	if n, ok := c.Choices[0].Logprobs.entries(); n != 2 || !ok {
		t.Errorf("completions entries %d %v, want 2 true", n, ok)
	}
	c.reset()
	chat := `{"choices":[{"index":0,"delta":{"content":"x"},"logprobs":{"content":[{"token":"x","logprob":-0.1,"bytes":[120],"top_logprobs":[]}]}}]}`
	if err := json.Unmarshal([]byte(chat), &c); err != nil {
		t.Fatal(err)
	}
	if n, ok := c.Choices[0].Logprobs.entries(); n != 1 || !ok {
		t.Errorf("chat entries %d %v, want 1 true", n, ok)
	}
	// A reused chunk must not keep the previous event's fields.
	c.reset()
	if err := json.Unmarshal([]byte(`{"choices":[{"index":0,"delta":{}}]}`), &c); err != nil {
		t.Fatal(err)
	}
	if _, ok := c.Choices[0].Logprobs.entries(); ok || c.Choices[0].Delta.Content != "" {
		t.Errorf("stale fields survived reset: %+v", c.Choices[0])
	}
}

func TestWireUsage(t *testing.T) {
	type want struct {
		present                   bool
		prompt, completion, think optInt
	}
	var c wireChunk
	for in, w := range map[string]want{
		`{"usage":null}`: {},
		`{}`:             {},
		`{"usage":{}}`:   {},
		`{"usage":{"prompt_tokens":3,"completion_tokens":5,"completion_tokens_details":{"reasoning_tokens":2}}}`: {true, optInt{3, true}, optInt{5, true}, optInt{2, true}},
		`{"usage":{"prompt_tokens":0,"completion_tokens":0,"total_tokens":0}}`:                                   {true, optInt{0, true}, optInt{0, true}, optInt{}},
		`{"usage":{"prompt_tokens":null,"completion_tokens":"7","completion_tokens_details":null}}`:              {},
		`{"usage":{"prompt_tokens":4,"completion_tokens":-1}}`:                                                   {true, optInt{4, true}, optInt{}, optInt{}},
	} {
		c.reset()
		if err := json.Unmarshal([]byte(in), &c); err != nil {
			t.Fatalf("%s: %v", in, err)
		}
		u, ok := c.usage()
		got := want{ok, u.PromptTokens, u.CompletionTokens, u.Details.ReasoningTokens}
		if got != w {
			t.Errorf("%s: usage %+v, want %+v", in, got, w)
		}
	}
}

func TestChunkDecoderReuse(t *testing.T) {
	var d chunkDecoder
	var c wireChunk
	for i, in := range []string{`{"choices":[{"index":0,"text":"a"}]}`, ` {"choices":[{"index":0,"text":"b"}]}  `, `{"choices":[]}`} {
		c.reset()
		if err := d.decode([]byte(in), &c); err != nil {
			t.Fatalf("event %d: %v", i, err)
		}
	}
	c.reset()
	if err := d.decode([]byte(`{"choices":[]} {"x":1}`), &c); err == nil {
		t.Fatal("trailing data after the value was accepted")
	}
	c.reset()
	if err := d.decode([]byte(`{"choices":[{"index":0,"text":"c"}]}`), &c); err != nil || c.Choices[0].Text != "c" {
		t.Fatalf("after a failure: %v %+v", err, c.Choices)
	}
	c.reset()
	if err := d.decode([]byte(`{"choices":[{"index":0,"text":`), &c); err == nil {
		t.Fatal("a truncated value was accepted")
	}
	event := []byte(`{"id":"x","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"role":"assistant"},"logprobs":null,"finish_reason":null}],"usage":null}`)
	allocs := testing.AllocsPerRun(100, func() {
		c.reset()
		_ = d.decode(event, &c)
	})
	if allocs > 0 {
		t.Errorf("%.1f allocations per decoded event without text, want 0", allocs)
	}
}

func TestServerMessage(t *testing.T) {
	cases := map[string]string{
		`{"error":{"message":"m1","type":"x"}}`:    "m1",
		`{"error":"m2"}`:                           "m2",
		`{"message":"m3","object":"error"}`:        "m3",
		`{"detail":"m4"}`:                          "m4",
		`{"error":{"error":{"message":"nested"}}}`: "nested",
		`{"error":{"code":500}}`:                   `{"code":500}`,
		`plain words`:                              "plain words",
		`{"unrelated":1}`:                          `{"unrelated":1}`,
		"  \n":                                     "",
	}
	for in, want := range cases {
		if got := serverMessage([]byte(in)); got != want {
			t.Errorf("serverMessage(%s) = %q, want %q", in, got, want)
		}
	}
	long := strings.Repeat("é", 400) // 800 bytes
	if got := serverMessage([]byte(long)); got != long {
		t.Errorf("serverMessage cut a long body to %d bytes: the cut comes after redaction", len(got))
	}
	got := truncateText(long)
	if !strings.HasSuffix(got, "…(truncated)") || len(got) > maxMessageBytes+len("…(truncated)") {
		t.Errorf("long body: %d bytes, suffix %q", len(got), got[len(got)-20:])
	}
	if !strings.HasPrefix(long, strings.TrimSuffix(got, "…(truncated)")) {
		t.Error("truncation split a rune")
	}
}

func TestRedactOutcome(t *testing.T) {
	out := &record.Outcome{Error: "bad key k3y", Text: new("k3y!"), FinishReason: "k3y"}
	redactOutcome(out, &Client{APIKey: "k3y"}, nil)
	if out.Error != "bad key [redacted]" || *out.Text != "[redacted]!" || out.FinishReason != "[redacted]" {
		t.Errorf("%+v", out)
	}
	out = &record.Outcome{Error: "unchanged"}
	redactOutcome(out, &Client{}, nil)
	if out.Error != "unchanged" {
		t.Error("an empty key redacted text")
	}
}
