package history_test

import (
	"fmt"
	"os"

	"github.com/servebench/servebench/servebench/history"
)

// Twelve releases whose error rate rises at v7: before it 1.0 % and 1.1 %
// in turn (mean 0.073/7 = 1.04 %), from it 4.1 % and 4.0 % (mean 0.203/5
// = 4.06 %): one change, 3.02 points worse, where it started.
func ExampleAnalyze() {
	var releases []history.Release
	for i := range 12 {
		rate := 0.01 + 0.001*float64(i%2)
		if i >= 7 {
			rate += 0.03
		}
		releases = append(releases, history.Release{Name: fmt.Sprintf("v%d", i), Values: map[string]float64{"error_rate": rate}})
	}
	h, err := history.Analyze(releases, history.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	_ = h.WriteText(os.Stdout)
	// Output:
	// releases, in order: v0, v1, v2, v3, v4, v5, v6, v7, v8, v9, v10, v11
	// method: e-divisive means (exponent 1) with binary segmentation; each split kept when a permutation test (199 shuffles) gives p ≤ 0.05, the false-alarm rate per tested split; latency on the log scale; each change's interval is Welch's t at 95% between its two segments
	// error_rate: 0.0100 0.0110 0.0100 0.0110 0.0100 0.0110 0.0100 0.0410 0.0400 0.0410 0.0400 0.0410
	//   change starting at v7: 0.0104 -> 0.0406, +3.02 pt (interval [+2.94 pt, +3.09 pt]; positive is worse), p = 0.010
}

// Load reads one release per directory, oldest first (an A/B directory
// gives its candidate's figures, a run directory its own), and Analyze
// finds where each metric's level shifted. This example only compiles: it
// needs the releases' directories.
func ExampleLoad() {
	releases, err := history.Load([]string{"runs/v1.4", "runs/v1.5", "runs/v1.6"}, false)
	if err != nil {
		fmt.Println(err)
		return
	}
	h, err := history.Analyze(releases, history.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	_ = h.WriteText(os.Stdout)
}
