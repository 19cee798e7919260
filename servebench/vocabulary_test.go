package servebench_test

import (
	"testing"

	"github.com/servebench/servebench/servebench/openai"
	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/servebench/report"
)

// The lists of declared values are the caller's own: changing one does not
// change what the package declares.
func TestDeclaredListsCannotBeChangedFromOutside(t *testing.T) {
	s := record.Statuses()
	s[0] = "changed"
	if got := record.Statuses(); got[0] != record.StatusSuccess || len(got) != 9 || !record.StatusSuccess.Valid() {
		t.Fatalf("Statuses() after a caller's change: %v", got)
	}
	r := report.Reasons()
	r[0] = "changed"
	if got := report.Reasons(); got[0] != report.ReasonStatus || len(got) != 5 {
		t.Fatalf("Reasons() after a caller's change: %v", got)
	}
	l := openai.LengthControls()
	l[0] = "changed"
	if got := openai.LengthControls(); got[0] != openai.LengthIgnoreEOS || len(got) != 3 {
		t.Fatalf("LengthControls() after a caller's change: %v", got)
	}
	e := record.Endpoints()
	e[0] = "changed"
	if got := record.Endpoints(); got[0] != record.EndpointCompletions || len(got) != 8 {
		t.Fatalf("Endpoints() after a caller's change: %v", got)
	}
	if _, err := openai.ParseLengthControl("changed"); err == nil {
		t.Fatal("a caller's change made a length control valid")
	}
}
