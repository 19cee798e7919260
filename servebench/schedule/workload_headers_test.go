package schedule

import (
	"strings"
	"testing"
)

// TestParseWorkloadRowHeaders: a row's headers are read as given.
func TestParseWorkloadRowHeaders(t *testing.T) {
	w, err := ParseWorkload("w.jsonl", []byte(`{"prompt":"x","max_tokens":4,"headers":{"x-llm-d-inference-fairness-id":"acme","X-Gateway-Key":"k1"}}`+"\n"))
	if err != nil {
		t.Fatal(err)
	}
	h := w.Requests[0].Headers
	if len(h) != 2 || h["x-llm-d-inference-fairness-id"] != "acme" || h["X-Gateway-Key"] != "k1" {
		t.Errorf("headers %v", h)
	}
	if v, ok := w.Requests[0].HeaderValue("X-LLM-D-Inference-Fairness-Id"); !ok || v != "acme" {
		t.Errorf("HeaderValue in another case = %q, %v", v, ok)
	}
}

// TestParseWorkloadRefusesReservedRowHeaders: a header servebench sets
// itself is refused as --header refuses it, naming the file, line, field
// and header, never the value.
func TestParseWorkloadRefusesReservedRowHeaders(t *testing.T) {
	ok := `{"prompt":"x","max_tokens":4}` + "\n"
	for _, tc := range []struct{ row, want string }{
		{`{"prompt":"x","max_tokens":4,"headers":{"Authorization":"Bearer SECRETVALUE"}}`,
			`w.jsonl:2: headers: header "Authorization": servebench sets this header itself and does not let it be replaced (give the key with --api-key-env`},
		{`{"prompt":"x","max_tokens":4,"headers":{"x-request-id":"SECRETVALUE"}}`,
			`w.jsonl:2: headers: header "x-request-id": servebench sets this header itself`},
		{`{"prompt":"x","max_tokens":4,"headers":{"X-A":"1","x-a":"SECRETVALUE"}}`,
			`w.jsonl:2: headers: "X-A" and "x-a" name the same header`},
		{`{"prompt":"x","max_tokens":4,"headers":{"X-A":"SECRET\nVALUE"}}`,
			`w.jsonl:2: headers: header "X-A": the value holds a control character (CR, LF or another) at byte 6`},
		{`{"prompt":"x","max_tokens":4,"headers":{"bad name":"SECRETVALUE"}}`,
			`w.jsonl:2: headers: header "bad name": the name holds ' '`},
		{`{"prompt":"x","max_tokens":4,"headers":{"X-A":3}}`,
			`w.jsonl:2: headers: expected a JSON string, got JSON number`},
	} {
		_, err := ParseWorkload("w.jsonl", []byte(ok+tc.row+"\n"))
		if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
			t.Errorf("%s: err %v, want it to start %q", tc.row, err, tc.want)
			continue
		}
		if strings.Contains(err.Error(), "SECRET") {
			t.Errorf("%s: the error quotes the value: %v", tc.row, err)
		}
	}
}
