package score

import (
	"bytes"
	"strings"
	"testing"

	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/servebench/report"
)

func TestWriteTextShowsTheMostCommonErrorMessages(t *testing.T) {
	r, err := Files(seedTracePath, seedEventsPath)
	if err != nil {
		t.Fatal(err)
	}
	missing := `The model "Qwen/Qwen3-0.6B" does not exist.`
	long := strings.Repeat("é", 100) // 200 bytes: cut at 160 bytes, 80 characters
	r.Requests = nil
	for range 3 {
		r.Requests = append(r.Requests, report.RequestScore{Status: record.StatusHTTPError, Error: missing})
	}
	for range 2 {
		r.Requests = append(r.Requests, report.RequestScore{Status: record.StatusStreamError, Error: "connection reset\nby peer"})
	}
	r.Requests = append(r.Requests, report.RequestScore{Status: record.StatusTimeout, Error: long}, report.RequestScore{Status: record.StatusSuccess})
	var buf bytes.Buffer
	if err := r.WriteText(&buf); err != nil {
		t.Fatal(err)
	}
	text := buf.String()
	for _, want := range []string{
		"Most common error messages (3 distinct)",
		"http_error:                          3 × " + missing + "\n",
		"stream_error:                        2 × connection reset by peer\n",
		"timeout:                             1 × " + strings.Repeat("é", 80) + "…\n",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("text lacks %q:\n%s", want, text)
		}
	}
	// The messages follow the status counts.
	if strings.Index(text, "Most common error messages") < strings.Index(text, "empty_output:") {
		t.Errorf("the messages come before the status counts:\n%s", text)
	}
}
