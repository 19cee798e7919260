package report

import "testing"

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
