package openai

import (
	"encoding/json"
	"fmt"
	"github.com/servebench/servebench/internal/jsonmutate"
	"reflect"
	"testing"
)

// responseDeltaLines are delta events as vLLM and OpenAI send them, and
// variations the fast path must take or leave.
func responseDeltaLines() [][]byte {
	var lines [][]byte
	types := []string{"response.output_text.delta", "response.reasoning_text.delta",
		"response.reasoning_summary_text.delta", "response.function_call_arguments.delta"}
	for i := range 200 {
		typ := types[i%len(types)]
		delta := fmt.Sprintf(" tok%d", i)
		switch i % 5 {
		case 0:
			lines = append(lines, fmt.Appendf(nil, `{"type":%q,"sequence_number":%d,"item_id":"msg_%d","output_index":%d,"content_index":0,"delta":%q,"logprobs":[]}`, typ, i, i%3, i%2, delta))
		case 1:
			lines = append(lines, fmt.Appendf(nil, `{"type":%q,"item_id":"msg_1","output_index":0,"content_index":0,"delta":%q,"sequence_number":%d,"obfuscation":"Zx9"}`, typ, delta, i))
		case 2:
			lines = append(lines, fmt.Appendf(nil, ` { "sequence_number" : %d , "type" : %q , "delta" : %q , "logprobs" : null } `, i, typ, delta))
		case 3:
			lines = append(lines, fmt.Appendf(nil, `{"type":%q,"sequence_number":null,"delta":null,"output_index":-1}`, typ))
		default:
			lines = append(lines, fmt.Appendf(nil, `{"type":%q,"sequence_number":%d,"delta":""}`, typ, i))
		}
	}
	// A negative sequence number is unknown to both decoders (optInt).
	lines = append(lines, []byte(`{"type":"response.output_text.delta","sequence_number":-4,"delta":"a"}`))
	return append(lines,
		[]byte(`{"type":"response.output_text.delta","sequence_number":3,"delta":"a","logprobs":[{"token":"a","logprob":-0.1}]}`),
		[]byte(`{"type":"response.output_text.delta","delta":"caf\u00e9"}`),
		[]byte(`{"type":"response.output_text.delta","delta":"a","delta":"b"}`),
		[]byte(`{"type":"response.output_text.delta","Delta":"a"}`),
		[]byte(`{"type":"response.output_text.delta","sequence_number":1.5,"delta":"a"}`),
		[]byte(`{"type":"response.output_text.delta","output_index":1.0,"delta":"a"}`),
		[]byte(`{"type":"response.completed","sequence_number":9,"response":{"status":"completed"}}`),
		[]byte(`{"type":"response.created","sequence_number":0}`),
		[]byte(`{"type":"error","message":"boom"}`),
		[]byte(`{"sequence_number":1,"delta":"no type"}`),
		[]byte(`{"type":"response.output_text.delta","delta":"a"} x`),
		[]byte(`[]`),
	)
}

// plainDeltaLines is how many of responseDeltaLines come first and must be
// taken by the fast path; the rest must be left to encoding/json.
const plainDeltaLines = 201

// decodeResponseEventSlow decodes data as the client did before the fast
// path.
func decodeResponseEventSlow(data []byte) (wireResponseEvent, error) {
	var ev wireResponseEvent
	err := json.Unmarshal(data, &ev)
	return ev, err
}

// TestResponseDeltaFastAgreesWithEncodingJSON checks that the plain delta
// events are taken by the fast path, that whatever it takes encoding/json
// decodes without error to the same value, and that mutated events never
// slip through when encoding/json would read them otherwise.
func TestResponseDeltaFastAgreesWithEncodingJSON(t *testing.T) {
	accepted := 0
	check := func(line []byte) {
		var fast wireResponseEvent
		if !decodeResponseDeltaFast(line, &fast) {
			return
		}
		accepted++
		slow, err := decodeResponseEventSlow(line)
		if err != nil {
			t.Fatalf("fast path took an event encoding/json refuses (%v): %s", err, line)
		}
		if !reflect.DeepEqual(fast, slow) {
			t.Fatalf("fast and encoding/json decodes differ for %s:\nfast %+v\nslow %+v", line, fast, slow)
		}
	}
	lines := responseDeltaLines()
	for i, line := range lines {
		var ev wireResponseEvent
		took := decodeResponseDeltaFast(line, &ev)
		if i < plainDeltaLines && !took {
			t.Fatalf("fast path refused a plain delta event: %s", line)
		}
		if i >= plainDeltaLines && took {
			t.Fatalf("fast path took an event it must leave to encoding/json: %s", line)
		}
		check(line)
	}
	jsonmutate.Each(21, lines, 20000, check)
	if accepted < plainDeltaLines {
		t.Fatalf("fast path took only %d events", accepted)
	}
}

func FuzzResponseDeltaFast(f *testing.F) {
	for _, l := range responseDeltaLines() {
		f.Add(l)
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		var fast wireResponseEvent
		if !decodeResponseDeltaFast(line, &fast) {
			return
		}
		slow, err := decodeResponseEventSlow(line)
		if err != nil {
			t.Fatalf("fast path took an event encoding/json refuses (%v): %q", err, line)
		}
		if !reflect.DeepEqual(fast, slow) {
			t.Fatalf("decodes differ for %q", line)
		}
	})
}
