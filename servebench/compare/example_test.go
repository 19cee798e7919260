package compare_test

import (
	"fmt"
	"os"

	"github.com/servebench/servebench/servebench"
	"github.com/servebench/servebench/servebench/compare"
)

// Three paired rounds of attainment: the candidate loses 2, 3 and 4 points.
func ExampleReports() {
	round := func(qualified int) *servebench.Report {
		a := float64(qualified) / 100
		return &servebench.Report{Schema: servebench.ReportSchema, Offered: 100, ProtocolSuccesses: 100,
			Qualified: qualified, Attainment: &a, Valid: true}
	}
	c, err := compare.Reports(
		[]*servebench.Report{round(90), round(92), round(94)},
		[]*servebench.Report{round(88), round(89), round(90)},
		compare.Options{Tolerances: []compare.Tolerance{{Name: "attainment", Value: 0.01}}})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(c.Comparisons[0].Describe())
	fmt.Println("exit code", c.ExitCode(false))
	// Output:
	// attainment: baseline 0.9200, candidate 0.8900, change +3.00 pt (interval [+1.31 pt, +4.69 pt], tolerance 1 pt): regression
	// exit code 5
}

func ExampleParseTolerance() {
	t, _ := compare.ParseTolerance("ttft_p99=10%")
	fmt.Println(t.Name, t.Value)
	_, err := compare.ParseTolerance("ttft_p99=ten")
	fmt.Println(err)
	// Output:
	// ttft_p99 0.1
	// tolerance "ttft_p99=ten": value "ten" is not a non-negative fraction or percentage
}

// The Wilson interval the calibration figures are reported with.
func ExampleWilsonInterval() {
	lo, hi := compare.WilsonInterval(0, 30, 0.95)
	fmt.Printf("[%.3f, %.3f]\n", lo, hi)
	// Output:
	// [0.000, 0.114]
}

// Write a comparison's text summary. One round of 90 of 100 on each side:
// each side's 90 % Wilson interval is [0.8396, 0.9393], so Newcombe's
// interval of the drop is 0 ± √(0.0604² + 0.0393²) = ±7.20 points, wider
// than the 5-point tolerance: inconclusive.
func ExampleComparison_WriteText() {
	round := func(qualified int) *servebench.Report {
		a := float64(qualified) / 100
		return &servebench.Report{Schema: servebench.ReportSchema, Offered: 100, ProtocolSuccesses: 100,
			Qualified: qualified, Attainment: &a, Valid: true}
	}
	c, _ := compare.Reports([]*servebench.Report{round(90)}, []*servebench.Report{round(90)},
		compare.Options{Tolerances: []compare.Tolerance{{Name: "attainment", Value: 0.05}}})
	_ = c.WriteText(os.Stdout)
	// Output:
	// verdict: inconclusive
	// rounds: baseline 1, candidate 1
	// method: request-level intervals from one round per side (blind to run-to-run variance): seeded bootstrap of the nearest-rank percentile, Newcombe's score interval for attainment and error rate, Poisson counts for qualified_rps
	// family: Bonferroni over 1 comparisons: each interval is two-sided at 90%, so each end is a one-sided bound at 95%; a regression needs the lower end beyond the tolerance, so an A/A comparison reports any regression with probability at most 0.05
	// caution: one round per side; these intervals are blind to run-to-run variance
	// (change, interval and tolerance: positive is worse)
	// statistic   baseline  candidate  change    interval              tolerance  verdict
	// attainment  0.9000    0.9000     +0.00 pt  [-7.20 pt, +7.20 pt]  5 pt       inconclusive
	// attainment: about 3× the requests per run would likely decide it; better, run 2 or more rounds, since request-level intervals are blind to run-to-run variance
}
