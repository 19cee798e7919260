package schedule

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"
	"testing"
)

func TestParseWorkloadRows(t *testing.T) {
	data := []byte(`{"id": "r01", "prompt": "Summarize the incident.", "max_tokens": 64, "class": "summary"}

{"messages": [{"role": "user", "content": "Is the pager storm over?"}], "max_tokens": 16, "ignore_eos": true, "scheduled_ms": 120.5, "extra": {"temperature": 0}}
`)
	w, err := ParseWorkload("incident.jsonl", data)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(data)
	if w.SHA256 != hex.EncodeToString(sum[:]) {
		t.Errorf("hash %s is not the SHA-256 of the exact bytes", w.SHA256)
	}
	if len(w.Requests) != 2 {
		t.Fatalf("%d rows, want 2", len(w.Requests))
	}
	r1, r2 := w.Requests[0], w.Requests[1]
	if r1.ID != "r01" || r1.Class != "summary" || r1.MaxTokens != 64 || r1.Line != 1 {
		t.Errorf("row 1 = %+v", r1)
	}
	// The second row sits on line 3 (after a blank line) and has no id.
	if r2.ID != "row-3" || r2.Line != 3 || !r2.IgnoreEOS || *r2.ScheduledMS != 120.5 || string(r2.Extra["temperature"]) != "0" {
		t.Errorf("row 2 = %+v", r2)
	}
	if r2.Messages[0].Content != "Is the pager storm over?" {
		t.Errorf("messages = %+v", r2.Messages)
	}
}

func TestParseWorkloadErrorsNameTheLineAndField(t *testing.T) {
	ok := `{"id":"a","prompt":"x","max_tokens":4}` + "\n"
	for _, tc := range []struct{ row, want string }{
		{`{"prompt":"x"}`, "w.jsonl:2: max_tokens"},
		{`{"prompt":"x","max_tokens":"many"}`, "w.jsonl:2: max_tokens: expected an integer, got JSON string"},
		{`{"max_tokens":3}`, "w.jsonl:2: prompt or messages"},
		{`{"prompt":"x","messages":[{"role":"user","content":"y"}],"max_tokens":3}`, "w.jsonl:2: prompt and messages"},
		{`{"prompt":"x","max_tokens":3,"temprature":1}`, `w.jsonl:2: temprature: unknown field`},
		{`{"prompt":"x","max_tokens":3`, "w.jsonl:2: malformed"},
		{`{"id":"a","prompt":"x","max_tokens":3}`, `w.jsonl:2: id: "a" already used on line 1`},
		{`{"prompt":"x","max_tokens":3,"scheduled_ms":-1}`, "w.jsonl:2: scheduled_ms"},
		{`{"messages":[{"content":"y"}],"max_tokens":3}`, "w.jsonl:2: messages[0].role"},
		{`{"prompt":"x","max_tokens":3,"turn":2}`, "w.jsonl:2: conversation: required"},
		{`{"prompt":"x","max_tokens":3} {"prompt":"y","max_tokens":3}`, "w.jsonl:2: more than one JSON value"},
		{`{"prompt":"x","max_tokens":3,"expect":{"regex":"("}}`, "w.jsonl:2: expect: "},
	} {
		_, err := ParseWorkload("w.jsonl", []byte(ok+tc.row+"\n"))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("row %s: error %v, want it to contain %q", tc.row, err, tc.want)
		}
	}
	if _, err := ParseWorkload("empty.jsonl", []byte("\n\n")); err == nil || !strings.Contains(err.Error(), "empty.jsonl: workload has no requests") {
		t.Errorf("empty workload: error %v", err)
	}
}

func FuzzParseWorkload(f *testing.F) {
	f.Add([]byte(`{"id":"r01","prompt":"hello","max_tokens":8}`))
	f.Add([]byte(`{"messages":[{"role":"user","content":"hi"}],"max_tokens":1,"scheduled_ms":3.5}` + "\n\n" + `{"prompt":"x","max_tokens":2,"conversation":"c","turn":2,"think_ms":10}`))
	f.Add([]byte(`{"prompt":"x","max_tokens":2,"extra":{"temperature":0.7},"expect":{"regex":"^ok"}}`))
	f.Add([]byte("{\"prompt\":\"\\u0000\",\"max_tokens\":1}\r\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		w, err := ParseWorkload("fuzz.jsonl", data)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "fuzz.jsonl") {
				t.Fatalf("error does not name the file: %v", err)
			}
			return
		}
		ids := map[string]bool{}
		for _, r := range w.Requests {
			if r.ID == "" || ids[r.ID] || r.MaxTokens <= 0 || r.Line < 1 || (r.Prompt == "") == (len(r.Messages) == 0) {
				t.Fatalf("accepted an invalid row: %+v", r)
			}
			ids[r.ID] = true
		}
	})
}
