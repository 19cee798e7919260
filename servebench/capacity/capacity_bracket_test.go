package capacity

import "testing"

// The answer line says what was searched for, the bracket, its
// confidence (the smaller of its ends') and the end that limits it, and
// whether that end reached the rule's confidence.
func TestBracketStringNamesTheLimitingEnd(t *testing.T) {
	f := func(v float64) *float64 { return &v }
	for _, tc := range []struct {
		b    Bracket
		want string
	}{
		{Bracket{Unit: UnitRPS, Low: f(16), High: f(48), LowConfidence: f(0.9993), HighConfidence: f(0.0066663), Confidence: f(0.0066663)},
			"SLO capacity between 16 and 48 req/s; confidence in the bracket 0.67% (limited by 48 req/s, not shown to fail)"},
		{Bracket{Unit: UnitRPS, Low: f(16), High: f(48), LowConfidence: f(0.62), HighConfidence: f(0.99), Confidence: f(0.62)},
			"SLO capacity between 16 and 48 req/s; confidence in the bracket 62% (limited by 16 req/s, not shown to pass)"},
		{Bracket{Unit: UnitRPS, Low: f(16), High: f(48), LowConfidence: f(0.999), HighConfidence: f(0.97), Confidence: f(0.97), Separated: true},
			"SLO capacity between 16 and 48 req/s; confidence in the bracket 97% (limited by 48 req/s, shown to fail)"},
		{Bracket{Unit: UnitUsers, Low: f(8), LowConfidence: f(0.975), Confidence: f(0.975), Separated: true},
			"SLO concurrency at least 8 users (no tested point failed); confidence in the bracket 97.5% (from 8 users, shown to pass)"},
		{Bracket{Unit: UnitRPS, High: f(2), HighConfidence: f(0.5), Confidence: f(0.5)},
			"SLO capacity below 2 req/s (no tested point passed); confidence in the bracket 50% (from 2 req/s, not shown to fail)"},
		{Bracket{Unit: UnitRPS, Low: f(1), High: f(2)},
			"SLO capacity between 1 and 2 req/s; confidence in the bracket n/a"},
		{Bracket{Unit: UnitRPS}, "no bracket: nothing was tested"},
	} {
		if got := tc.b.String(); got != tc.want {
			t.Errorf("got  %q\nwant %q", got, tc.want)
		}
	}
}
