package render

import (
	"reflect"
	"strings"
	"testing"
)

// chartOf draws the CDF of xs.
func chartOf(title string, xs []float64, bound *cdfBoundSpec) svgCDF {
	s := newCDFSample(bound)
	for _, x := range xs {
		s.add(x)
	}
	return cdfChart(title, s, bound)
}

// withExactLimit lowers cdfExactLimit for one test.
func withExactLimit(t *testing.T, n int) {
	old := cdfExactLimit
	cdfExactLimit = n
	t.Cleanup(func() { cdfExactLimit = old })
}

// Past the exact limit each order statistic is read as its bin's floor:
// 1.0005 lies in [1, 1 + 2^-10), 7 = 1.75·2² and 100 = 1.5625·2⁶ lie on
// the bins' grid (2^-10 of an octave: 0.0625 wide between 64 and 128), so
// 100.03 reads as 100; the first step is read no lower than the exact
// minimum and the last is the exact maximum. The count at or below the
// bound of 100 is exact: 1.0005 and 7, 2 of 4.
func TestCDFSampleBinnedByHand(t *testing.T) {
	withExactLimit(t, 2)
	c := chartOf("TTFT", []float64{100.03, 1.0005, 7, 250.2}, cdfBound(100, true, "TTFT bound"))
	want := [][2]float64{{1.0005, 0}, {1.0005, 0.25}, {7, 0.5}, {100, 0.75}, {250.2, 1}}
	if !reflect.DeepEqual(c.Points, want) {
		t.Fatalf("points %v, want %v", c.Points, want)
	}
	if !strings.Contains(c.Caption, "2 of 4 (50.0%) at or below the TTFT bound") {
		t.Errorf("caption %q", c.Caption)
	}
}

// 1..1000 past the exact limit: integers up to 1024 lie on the bins' grid
// (0.5 wide between 512 and 1024), so the binned CDF draws the exact
// one's order statistics: ranks round(k·999/399), the second drawn rank 3
// (value 4 at 4/1000), the last the maximum; and the caption says the
// values were binned.
func TestCDFSampleBinnedMatchesExactOnTheGrid(t *testing.T) {
	xs := make([]float64, 1000)
	for i := range xs {
		xs[i] = float64(1000 - i)
	}
	exact := chartOf("E2E", xs, nil)
	withExactLimit(t, 10)
	binned := chartOf("E2E", xs, nil)
	if !reflect.DeepEqual(binned.Points, exact.Points) || binned.Steps != 400 || binned.Points[2] != [2]float64{4, 0.004} {
		t.Fatalf("binned steps %d, points %v…", binned.Steps, binned.Points[:3])
	}
	if !strings.Contains(binned.Caption, "bins 1/1024 of an octave") || strings.Contains(exact.Caption, "bins") {
		t.Errorf("captions %q / %q", binned.Caption, exact.Caption)
	}
}

// Bin keys sort as the values do, across zero.
func TestCDFBinKeyOrder(t *testing.T) {
	vs := []float64{-3, -1.0005, -1, 0, 0.5, 1, 1.0005, 3}
	for i := 1; i < len(vs); i++ {
		a, b := cdfBinKey(vs[i-1]), cdfBinKey(vs[i])
		if a > b {
			t.Errorf("key(%v) = %d > key(%v) = %d", vs[i-1], a, vs[i], b)
		}
	}
	// 1 + 2^-10 = 1.0009765625 starts the bin after 1's.
	if cdfBinKey(1) != cdfBinKey(1.0005) || cdfBinKey(1) == cdfBinKey(1.001) || cdfBinFloor(cdfBinKey(1.001)) != 1.0009765625 ||
		cdfBinFloor(cdfBinKey(1.0005)) != 1 || cdfBinFloor(cdfBinKey(-1.0005)) != -1 {
		t.Errorf("keys %d %d %d; floors %v %v %v", cdfBinKey(1), cdfBinKey(1.0005), cdfBinKey(1.001),
			cdfBinFloor(cdfBinKey(1.001)), cdfBinFloor(cdfBinKey(1.0005)), cdfBinFloor(cdfBinKey(-1.0005)))
	}
}
