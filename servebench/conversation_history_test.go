package servebench

import (
	"testing"

	"github.com/servebench/servebench/servebench/record"
)

// TestConversationAsksForTextOnlyBeforeALaterTurn: under engine history
// only a turn that another follows asks for its text; the last turn gets
// the answers so far and asks for none; the workload's row is never
// changed; under workload history the row is sent as it is.
func TestConversationAsksForTextOnlyBeforeALaterTurn(t *testing.T) {
	row := &record.Request{ID: "c-3", Messages: []record.Message{
		{Role: "user", Content: "q1"}, {Role: "assistant", Content: "w1"}, {Role: "user", Content: "q2"},
		{Role: "assistant", Content: "w2"}, {Role: "user", Content: "q3"},
	}}
	c := conversation{engine: true}
	if first := c.request(row, true); first == row || !first.KeepText {
		t.Fatalf("a turn with a later one: KeepText %v (same row: %v), want a copy asking for its text", first.KeepText, first == row)
	}
	for _, a := range []string{"answer one", "answer two"} {
		out := &record.Outcome{Status: record.StatusSuccess, Text: new(a), ToolCalls: nil}
		c.ended("t", true, false, out)
		if out.Text != nil {
			t.Fatalf("the answer %q stayed in the record", a)
		}
	}
	last := c.request(row, false)
	if last.KeepText {
		t.Fatal("the last turn asked for its text")
	}
	want := []string{"q1", "answer one", "q2", "answer two", "q3"}
	for i, m := range last.Messages {
		if m.Content != want[i] {
			t.Fatalf("message %d is %q, want %q", i, m.Content, want[i])
		}
	}
	if c.answers != nil {
		t.Fatalf("the conversation still holds %d answers after its last turn's request", len(c.answers))
	}
	if row.Messages[1].Content != "w1" || row.Messages[3].Content != "w2" {
		t.Fatal("the workload's row was changed")
	}
	kept := &record.Outcome{Status: record.StatusSuccess, Text: new("judged")}
	c.ended("t", true, true, kept)
	if kept.Text == nil || *kept.Text != "judged" {
		t.Fatal("a text the record wants (--keep-text or an expectation) was taken out")
	}

	w := conversation{}
	if got := w.request(row, true); got != row {
		t.Fatal("workload history did not send the row as it is")
	}
	w.ended("c-1", false, false, &record.Outcome{Status: record.StatusTimeout})
	if got, want := w.stopped(), "not sent: an earlier turn of its conversation (c-1) ended timeout, so the conversation did not go on"; got != want {
		t.Fatalf("stopped %q, want %q", got, want)
	}
}
