package servebench

import (
	"reflect"
	"testing"
)

func TestComparePromptTokens(t *testing.T) {
	cases := []struct {
		requested, reported int
		tol                 PromptTokenTolerance
		want                PromptTokenMismatch
		text                string
	}{
		// 5 % of 512 is 25.6, rounded up to 26, above the 16 absolute.
		{512, 525, DefaultPromptTokenTolerance, PromptTokenMismatch{512, 525, 13, 26, false},
			"requested 512 prompt tokens, engine reported 525 (+13, within the allowed ±26)"},
		// 5 % of 100 is 5, below 16: the absolute bound applies.
		{100, 120, DefaultPromptTokenTolerance, PromptTokenMismatch{100, 120, 20, 16, true},
			"requested 100 prompt tokens, engine reported 120 (+20, beyond the allowed ±16)"},
		{100, 116, DefaultPromptTokenTolerance, PromptTokenMismatch{100, 116, 16, 16, false},
			"requested 100 prompt tokens, engine reported 116 (+16, within the allowed ±16)"},
		// Fewer tokens than requested (truncation) is flagged as well.
		{1000, 940, DefaultPromptTokenTolerance, PromptTokenMismatch{1000, 940, -60, 50, true},
			"requested 1000 prompt tokens, engine reported 940 (-60, beyond the allowed ±50)"},
		{64, 64, PromptTokenTolerance{}, PromptTokenMismatch{64, 64, 0, 0, false},
			"requested 64 prompt tokens, engine reported 64 (+0, within the allowed ±0)"},
	}
	for _, c := range cases {
		got := ComparePromptTokens(c.requested, c.reported, c.tol)
		if got != c.want || got.String() != c.text {
			t.Errorf("ComparePromptTokens(%d, %d) = %+v %q\nwant %+v %q", c.requested, c.reported, got, got.String(), c.want, c.text)
		}
	}
}

func TestPromptTokenAudit(t *testing.T) {
	a := PromptTokenAudit{Tolerance: PromptTokenTolerance{Absolute: 10}}
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
