package schedule_test

import (
	"strings"
	"testing"

	"github.com/servebench/servebench/servebench/schedule"
)

// TestWorkloadRefusesUnprintableNames: an id, class or conversation with
// a control character, or a line with invalid UTF-8, is refused at load
// with the file, the line and the field.
func TestWorkloadRefusesUnprintableNames(t *testing.T) {
	good := `{"id":"ok","prompt":"p","max_tokens":1}` + "\n"
	for row, want := range map[string]string{
		`{"id":"a\u001b[2Jb","prompt":"p","max_tokens":1}`:               "w.jsonl:2: id: holds the control character U+001B at byte 1",
		`{"id":"x","class":"c\r","prompt":"p","max_tokens":1}`:           "w.jsonl:2: class: holds the control character U+000D at byte 1",
		`{"id":"y","conversation":"\u0085","prompt":"p","max_tokens":1}`: "w.jsonl:2: conversation: holds the control character U+0085 at byte 0",
		"{\"id\":\"z\xff\",\"prompt\":\"p\",\"max_tokens\":1}":           "w.jsonl:2: row: invalid UTF-8 at byte 8 of the line",
		"{\"id\":\"z\",\"prompt\":\"p\xc3\",\"max_tokens\":1}":           "w.jsonl:2: row: invalid UTF-8 at byte 21 of the line",
		`{"id":"tab\there","prompt":"p","max_tokens":1}`:                 "w.jsonl:2: id: holds the control character U+0009 at byte 3",
	} {
		_, err := schedule.ParseWorkload("w.jsonl", []byte(good+row+"\n"))
		if err == nil || err.Error() != want {
			t.Errorf("row %q: err %v, want %q", row, err, want)
		}
	}
	if _, err := schedule.ParseWorkload("w.jsonl", []byte(good+`{"id":"é-ü \uFFFD","class":"日本","prompt":"p","max_tokens":1}`+"\n")); err != nil {
		t.Errorf("printable non-ASCII names refused: %v", err)
	}
	if err := schedule.CheckPrintableName("--model", "m\x07"); err == nil || !strings.Contains(err.Error(), "--model: holds the control character U+0007") {
		t.Errorf("model with BEL: %v", err)
	}
}
