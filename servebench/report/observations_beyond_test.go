package report

import "testing"

// TestObservationsNeeded checks the smallest population with five
// observations above the percentile against values worked by hand from
// n − ⌈p·n/100⌉: p50 of 10 leaves 5 (of 9, 4); p90 of 50 leaves 5 (of 49,
// 4); p99 of 500 leaves 5 (of 499, 4); p99.9 of 5,000 leaves 5 (of 4,999,
// 4).
func TestObservationsNeeded(t *testing.T) {
	for _, c := range []struct {
		p    float64
		want int
	}{{50, 10}, {90, 50}, {99, 500}, {99.9, 5000}, {1, 6}} {
		if got := ObservationsNeeded(c.p); got != c.want {
			t.Errorf("ObservationsNeeded(%g) = %d, want %d", c.p, got, c.want)
		}
		if !Judgeable(c.want, c.p) || Judgeable(c.want-1, c.p) {
			t.Errorf("p%g: Judgeable should first hold at %d observations", c.p, c.want)
		}
	}
}
