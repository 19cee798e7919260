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
	// ratio policy: a release violates when a latency is above 1.2 × the median of the 3 releases before it, or a throughput below 0.8 × (attainment and error rate are not judged); the newest release is a regression when it and the one before both violate on one statistic
	// newest release v11 under the changepoint policy: no_regression
}

// Six releases under the PyTorch HUD's ratio rule: p99 TTFT 100, 110, 90,
// 105, 130 and 135 ms. v4 is judged against the median of 100, 110 and 90
// (100 ms: bound 120 ms, ok); v5 against that of 110, 90 and 105 (105 ms:
// bound 126 ms, 130 violates); v6 against that of 90, 105 and 130 (105
// ms again: 135 violates). The newest release and the one before both
// violate: a regression.
func ExampleHistory_Judge() {
	var releases []history.Release
	for i, v := range []float64{100, 110, 90, 105, 130, 135} {
		releases = append(releases, history.Release{Name: fmt.Sprintf("v%d", i+1), Values: map[string]float64{"ttft_p99": v}})
	}
	h, err := history.Analyze(releases, history.Options{Policy: history.PolicyRatio})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(h.Verdict.Headline())
	for _, r := range h.Verdict.Reasons {
		fmt.Println(r)
	}
	// Output:
	// newest release v6 under the ratio policy: regression
	// ttft_p99 at v6: 135.00 ms > 126.00 ms (1.2 × the median 105.00 ms of the releases before); and ttft_p99 at v5: 130.00 ms > 126.00 ms (1.2 × the median 105.00 ms of the releases before)
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
