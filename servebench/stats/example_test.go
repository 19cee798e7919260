package stats_test

import (
	"fmt"

	"github.com/servebench/servebench/servebench/stats"
)

// A perfect small sample does not certify a 95% service level.
func ExampleWilsonLower() {
	for _, c := range [][2]int{{190, 200}, {200, 200}, {20, 20}} {
		lower, _ := stats.WilsonLower(c[0], c[1], 0.95)
		fmt.Printf("%d/%d: %.1f%%\n", c[0], c[1], lower*100)
	}
	// Output:
	// 190/200: 91.8%
	// 200/200: 98.7%
	// 20/20: 88.1%
}

func ExamplePercentile() {
	gaps := []float64{40, 40, 40, 120} // sorted
	p99, _ := stats.Percentile(gaps, 99, stats.NearestRank)
	p50, _ := stats.Percentile(gaps, 50, stats.Linear)
	fmt.Println(p99, p50)
	// Output: 120 40
}

func ExampleNormalQuantile() {
	fmt.Printf("%.7f\n", stats.NormalQuantile(0.95))
	// Output: 1.6448536
}

// A sample held as counts (40 three times, 120 once) is read through the
// value at each rank, without being expanded.
func ExamplePercentileAt() {
	at := func(rank int) float64 {
		if rank <= 3 {
			return 40
		}
		return 120
	}
	p99, _ := stats.PercentileAt(4, at, 99, stats.NearestRank)
	p50, _ := stats.PercentileAt(4, at, 50, stats.Linear)
	fmt.Println(p99, p50)
	// Output: 120 40
}
