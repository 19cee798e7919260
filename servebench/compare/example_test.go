package compare_test

import (
	"fmt"
	"os"

	"github.com/servebench/servebench/servebench/compare"
	"github.com/servebench/servebench/servebench/report"
)

// Three rounds of 1000 requests: the candidate qualifies 5, 6 and 7 points
// fewer.
func ExampleReports() {
	round := func(qualified int) *report.Report {
		a := float64(qualified) / 1000
		return &report.Report{Schema: report.ReportSchema, Offered: 1000, ProtocolSuccesses: 1000,
			Qualified: qualified, Attainment: &a, Valid: true}
	}
	c, err := compare.Reports(
		[]*report.Report{round(900), round(920), round(940)},
		[]*report.Report{round(850), round(860), round(870)},
		compare.Options{Tolerances: []compare.Tolerance{{Name: "attainment", Value: 0.02}}})
	if err != nil {
		fmt.Println(err)
		return
	}
	m := c.Comparisons[0]
	fmt.Println(m.Describe())
	fmt.Printf("noise %.4f per round, detectable from %.4f\n", *m.Noise, m.MinDetectableEffect)
	fmt.Println("exit code", c.ExitCode())
	// Output:
	// attainment: baseline 0.9200, candidate 0.8600, change +6.00 pt (interval [+3.12 pt, +8.67 pt], tolerance 2 pt): regression
	// noise 0.0158 per round, detectable from 0.0488
	// exit code 5
}

func ExampleParseTolerance() {
	t, _ := compare.ParseTolerance("ttft_p99=10%")
	fmt.Println(t.Name, t.Value)
	_, err := compare.ParseTolerance("ttft_p99=ten")
	fmt.Println(err)
	// Output:
	// ttft_p99 0.1
	// tolerance "ttft_p99=ten": value "ten" is not a positive fraction or percentage (with 0 any measurable slowdown is a regression)
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
// than the 5-point tolerance: the result leans inconclusive, and with one
// round it is advisory (exit 6) whatever it leans to.
func ExampleComparison_WriteText() {
	round := func(qualified int) *report.Report {
		a := float64(qualified) / 100
		return &report.Report{Schema: report.ReportSchema, Offered: 100, ProtocolSuccesses: 100,
			Qualified: qualified, Attainment: &a, Valid: true}
	}
	c, _ := compare.Reports([]*report.Report{round(90)}, []*report.Report{round(90)},
		compare.Options{Tolerances: []compare.Tolerance{{Name: "attainment", Value: 0.05}}})
	_ = c.WriteText(os.Stdout)
	// Output:
	// verdict: advisory (exit 6)
	// rounds: baseline 1, candidate 1
	// method: request-level intervals from one round per side (blind to run-to-run variance): seeded bootstrap of the percentile, Newcombe's score interval for attainment and error rate, Poisson counts for qualified_rps; latency percentiles count each failed request as slower than any success (the success-only figure is given beside)
	// family: Bonferroni over the 1 deciding comparison for the lower ends: each is a one-sided bound at 95%, and a regression needs one beyond its tolerance, so an A/A comparison reports any regression with probability at most 0.05; each upper end is a one-sided bound at 95%, and no_regression needs every one within its tolerance (an intersection–union test), so a candidate worse than a tolerance is called no_regression with probability at most 0.05 only if runs did not vary from one to the next, which one round per side cannot check: the result is advisory
	// ADVISORY: one round per side; these intervals are blind to run-to-run variance, so no verdict is given (exit 6); run 2 or more rounds (servebench ab runs rounds until decided by default)
	// (change, interval and tolerance: positive is worse)
	// statistic   baseline  candidate  change    interval              tolerance  noise/round  detectable  verdict
	// attainment  0.9000    0.9000     +0.00 pt  [-7.20 pt, +7.20 pt]  5 pt       -            +12.20 pt   advisory (leaning inconclusive)
	// (detectable: the smallest change these rounds and this noise would have called a regression)
	// attainment: about 3× the requests per run would likely decide it; better, run 2 or more rounds, since request-level intervals are blind to run-to-run variance
}

// The balanced order of four rounds: each side's runs average position 4.5.
func ExampleABBAOrder() {
	o := compare.ABBAOrder(4)
	fmt.Println(o.Describe())
	fmt.Println(o.Runs[2])
	// Output:
	// ABBABAAB (ABBA; A baseline, B candidate): mean position baseline 4.5, candidate 4.5
	// candidate/round-2
}

// Before any load: can 40 requests a round, in rounds until decided (at
// most 20), decide a 1-point attainment tolerance? With no noise.json the
// check takes the binomial noise at attainment 0.995, and names the run
// size that can.
func ExampleCheckPlan() {
	plan, err := compare.CheckPlan(compare.Options{Tolerances: []compare.Tolerance{{Name: "attainment", Value: 0.01}}}, "", 40, 20, false, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(plan.CanDecide())
	fmt.Println(plan.Statistics[0].Advice)
	// Output:
	// false
	// a 1 pt attainment tolerance needs about 76 requests a round (this plan: 40)
}
