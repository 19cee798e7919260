package score

import (
	"reflect"
	"testing"

	"github.com/servebench/servebench/servebench/report"
)

func TestPromptTokenAudit(t *testing.T) {
	a := report.PromptTokenAudit{Tolerance: report.PromptTokenTolerance{Absolute: 10}}
	a.Add("r1", new(100), new(108)) // +8, within
	a.Add("r2", new(100), new(125)) // +25, beyond
	a.Add("r3", new(50), new(38))   // -12, beyond
	a.Add("r4", new(70), nil)       // engine did not report
	a.Add("r5", nil, new(99))       // row declared nothing: not counted
	if a.Compared != 3 || a.Mismatched != 2 || a.Unreported != 1 || a.MaxAbsDifference != 25 {
		t.Fatalf("audit %+v", a)
	}
	// Mean difference (8 + 25 - 12) / 3 = 7.
	if a.MeanDifference == nil || *a.MeanDifference != 7 {
		t.Fatalf("mean difference %v, want 7", a.MeanDifference)
	}
	want := []string{
		"r2: requested 100 prompt tokens, engine reported 125 (+25, beyond the allowed ±10)",
		"r3: requested 50 prompt tokens, engine reported 38 (-12, beyond the allowed ±10)",
	}
	if !reflect.DeepEqual(a.Examples, want) {
		t.Fatalf("examples %q", a.Examples)
	}
}
