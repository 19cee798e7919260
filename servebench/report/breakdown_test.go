package report

import "testing"

// TestCachedFractionOfBuckets puts each share in the bucket that holds
// its lower bound, and leaves a request without both counts out.
func TestCachedFractionOfBuckets(t *testing.T) {
	n := func(v int) *int { return &v }
	for _, tc := range []struct {
		cached, prompt *int
		want           string
	}{
		{n(0), n(100), "0%"}, {n(1), n(100), "0-25%"}, {n(24), n(100), "0-25%"}, {n(25), n(100), "25-50%"},
		{n(50), n(100), "50-75%"}, {n(74), n(100), "50-75%"}, {n(75), n(100), "75-100%"}, {n(100), n(100), "75-100%"},
		{nil, n(100), ""}, {n(10), nil, ""}, {n(0), n(0), ""},
	} {
		if got := CachedFractionOf(tc.cached, tc.prompt); got != tc.want {
			t.Errorf("CachedFractionOf(%v, %v) = %q, want %q", tc.cached, tc.prompt, got, tc.want)
		}
	}
}
