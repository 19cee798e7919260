package schedule

import (
	"strings"
	"testing"
)

func TestParseWorkloadRefusesAnIDACycleWouldReuse(t *testing.T) {
	for _, tc := range []struct{ rows, want string }{
		{"{\"id\":\"a\",\"prompt\":\"x\",\"max_tokens\":1}\n{\"id\":\"a#2\",\"prompt\":\"y\",\"max_tokens\":1}\n",
			`w.jsonl:2: id: "a#2" is the name a schedule gives the 2nd use of row "a" (line 1) when the workload cycles; rename it`},
		// The cycled row may come after the row it shadows is named.
		{"{\"id\":\"q#13\",\"prompt\":\"x\",\"max_tokens\":1}\n\n{\"id\":\"q\",\"prompt\":\"y\",\"max_tokens\":1}\n",
			`w.jsonl:1: id: "q#13" is the name a schedule gives the 13th use of row "q" (line 3)`},
	} {
		_, err := ParseWorkload("w.jsonl", []byte(tc.rows))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("rows %q: error %v, want %q", tc.rows, err, tc.want)
		}
	}
	// Ids that no cycle produces are fine: "#1" (the first use keeps the
	// bare id), a leading zero, no base row, a non-number.
	ok := "{\"id\":\"a\",\"prompt\":\"x\",\"max_tokens\":1}\n{\"id\":\"a#1\",\"prompt\":\"x\",\"max_tokens\":1}\n" +
		"{\"id\":\"a#02\",\"prompt\":\"x\",\"max_tokens\":1}\n{\"id\":\"b#2\",\"prompt\":\"x\",\"max_tokens\":1}\n" +
		"{\"id\":\"a#x\",\"prompt\":\"x\",\"max_tokens\":1}\n"
	if _, err := ParseWorkload("w.jsonl", []byte(ok)); err != nil {
		t.Fatalf("ids no cycle produces were refused: %v", err)
	}
}

func TestParseWorkloadErrorsNameNoGoTypes(t *testing.T) {
	for _, tc := range []struct{ rows, want string }{
		{`[{"id":"a"}]`, "array.jsonl:1: row: expected a JSON object, got JSON array"},
		{`"text"`, "array.jsonl:1: row: expected a JSON object, got JSON string"},
		{`{"prompt":"x","max_tokens":1,"messages":"hi"}`, "array.jsonl:1: messages: expected a JSON array, got JSON string"},
		{`{"prompt":"x","max_tokens":1.5}`, "array.jsonl:1: max_tokens: expected an integer, got JSON number 1.5"},
		{`null`, "array.jsonl:1: row: expected a JSON object, got JSON null"},
		{`{"prompt":"x","max_tokens":1,"tokens":5}`, "array.jsonl:1: tokens: unknown field"},
	} {
		_, err := ParseWorkload("array.jsonl", []byte(tc.rows))
		if err == nil || err.Error() != tc.want {
			t.Errorf("row %s: error %v, want %q", tc.rows, err, tc.want)
		}
		if err != nil && strings.Contains(err.Error(), "servebench.") {
			t.Errorf("row %s: error shows a Go type: %v", tc.rows, err)
		}
	}
}
