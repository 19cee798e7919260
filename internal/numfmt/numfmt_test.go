package numfmt

import (
	"math"
	"testing"
)

func ptr(v float64) *float64 { return &v }

func TestFormats(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	for _, tc := range []struct{ got, want string }{
		{Compact(240), "240"},
		{Compact(1500.25), "1500.25"},
		{Compact(0.001), "0.001"},
		{Compact(0.0004), "0"},     // below the microsecond resolution
		{Compact(-0.0004), "0"},    // never "-0"
		{Compact(2.0005), "2.001"}, // 2.0005 is stored just above, rounds up
		{Compact(-12.5), "-12.5"},
		{Compact(nan), "n/a"},
		{OptCompact(nil), "n/a"},
		{OptCompact(ptr(7)), "7"},
		{MS(240), "240 ms"},
		{MS(inf), "n/a"},
		{OptMS(nil), "n/a"},
		{OptMS(ptr(0.25)), "0.25 ms"},
		{Fixed(0.9, 3), "0.900"},
		{Fixed(-0.0001, 3), "0.000"},
		{OptFixed(nil, 3), "n/a"},
		{OptFixed(ptr(1.0/3), 2), "0.33"},
		{Percent(190.0 / 200), "95.0%"},
		{Percent(0.918), "91.8%"},
		{Percent(1), "100.0%"},
		{Percent(nan), "n/a"},
		{OptPercent(nil), "n/a"},
		{OptPercent(ptr(0)), "0.0%"},
		{Level(0.95), "95%"},
		{Level(0.999), "99.9%"},
		{Level(0.9), "90%"},
		{Confidence(0.0066663), "0.67%"},
		{Confidence(0.676822), "68%"},
		{Confidence(0.999412), "99.941%"},
		{Confidence(0.95), "95%"},
		{Confidence(0.975), "97.5%"},
		{Confidence(1 - 4.3e-11), "99.9999999957%"},
		{Confidence(1), "100%"},
		{Confidence(0), "0%"},
		{Confidence(0.5), "50%"},
		{Shortest(0.1), "0.1"},
		{Shortest(1e21), "1e+21"},
		{Sig6(12.3456789), "12.3457"},
		{Sig6(-inf), "n/a"},
		{Or(""), "n/a"},
		{Or("vllm"), "vllm"},
	} {
		if tc.got != tc.want {
			t.Errorf("got %q, want %q", tc.got, tc.want)
		}
	}
}

func TestCount(t *testing.T) {
	for _, c := range []struct {
		n    int
		want string
	}{{0, "0 rounds"}, {1, "1 round"}, {2, "2 rounds"}, {-1, "-1 rounds"}} {
		if got := Count(c.n, "round", "rounds"); got != c.want {
			t.Errorf("Count(%d) = %q, want %q", c.n, got, c.want)
		}
	}
}
