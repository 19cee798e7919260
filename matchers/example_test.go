package matchers_test

import (
	"fmt"
	"time"

	"github.com/onsi/gomega"

	"github.com/servebench/servebench/matchers"
	"github.com/servebench/servebench/servebench/capacity"
	"github.com/servebench/servebench/servebench/compare"
	"github.com/servebench/servebench/servebench/history"
	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/servebench/report"
	"github.com/servebench/servebench/servebench/schedule"
	"github.com/servebench/servebench/servebench/score"
)

// printFailures is a Gomega whose failures are printed instead of failing a
// test, so the examples can show the messages.
func printFailures() gomega.Gomega {
	return gomega.NewGomega(func(message string, _ ...int) { fmt.Println(message) })
}

// scored scores three requests against TTFT <= 300 ms: r1 and r2 meet it,
// r3 answers after 450 ms, so two of three qualify.
func scored() *report.Report {
	sched := &schedule.Schedule{WindowMS: [2]float64{0, 300}, ScheduleLagToleranceMS: 20}
	var outcomes []record.Outcome
	for i, ttft := range []float64{120, 250, 450} {
		id := fmt.Sprintf("r%d", i+1)
		a := float64(i) * 100
		sched.Entries = append(sched.Entries, schedule.Entry{ID: id, ScheduledMS: a})
		n := 2
		outcomes = append(outcomes, record.Outcome{
			ID: id, Attempt: 1, Status: record.StatusSuccess, ScheduledMS: a, SentMS: &a,
			FirstContentMS: ptr(a + ttft), LastContentMS: ptr(a + ttft + 30), TerminalMS: a + ttft + 31,
			ContentMS: []float64{a + ttft, a + ttft + 30}, OutputTokens: &n,
		})
	}
	r, err := score.Outcomes(sched, outcomes, score.Options{SLO: report.SLO{TTFT: 300 * time.Millisecond}})
	if err != nil {
		panic(err)
	}
	return r
}

func ptr(v float64) *float64 { return &v }

func ExampleHaveAttainmentAtLeast() {
	g := printFailures()
	g.Expect(scored()).To(matchers.HaveAttainmentAtLeast(0.6)) // 2 of 3: passes
	g.Expect(scored()).To(matchers.HaveAttainmentAtLeast(0.9))
	// Output:
	// Expected attainment 0.667 (2 of 3 offered) to be at least 0.900
	// unqualified requests by failed criterion (a request can fail several): ttft 1
	// terminal statuses: success 3
	// SLO: TTFT <= 300 ms (from sent)
	// worst unqualified requests:
	//     r3 success: scheduled 200 ms, sent 200 ms (lag 0 ms), TTFT 450 ms, TPOT 30 ms, E2E 481 ms; failed ttft
}

func ExampleHaveWilsonLowerBoundAbove() {
	// 190 of 200 offered requests qualified: 95% observed, but the
	// evidence supports only 91.8% at 95% confidence.
	report := &report.Report{
		Offered: 200, ProtocolSuccesses: 200, Qualified: 190,
		StatusCounts: map[record.Status]int{record.StatusSuccess: 200},
		ReasonCounts: map[report.Reason]int{report.ReasonE2E: 10},
	}
	g := printFailures()
	g.Expect(report).To(matchers.HaveAttainmentAtLeast(0.95)) // passes
	g.Expect(report).To(matchers.HaveWilsonLowerBoundAbove(0.95))
	// Output:
	// Expected the one-sided 95% Wilson lower bound of attainment 91.8% (190 of 200 offered qualified, observed 95.0%) to be at least 95.0%
	// (the bound lies below the observed rate, so no number of requests at the observed 95.0% can reach 95.0%)
	// unqualified requests by failed criterion (a request can fail several): e2e 10
	// terminal statuses: success 200
}

func ExampleHaveLatencyPercentileBelow() {
	g := printFailures()
	// Nearest-rank p50 of 120, 250, 450 ms is rank 2: 250 ms.
	g.Expect(scored()).To(matchers.HaveLatencyPercentileBelow(record.MetricTTFT, 50, 250*time.Millisecond))
	g.Expect(scored()).NotTo(matchers.HaveLatencyPercentileBelow(record.MetricTTFT, 99, 300*time.Millisecond))
	fmt.Println("p99 TTFT exceeds 300 ms")
	// Output:
	// p99 TTFT exceeds 300 ms
}

func ExampleMeetSLOs() {
	g := printFailures()
	g.Expect(scored()).To(matchers.MeetSLOs(
		matchers.BeValidLoad(),
		matchers.HaveNoLostRequests(),
		matchers.HaveErrorRateBelow(0),
		matchers.HaveAttainmentAtLeast(0.9),
	))
	// Output:
	// Expected all 4 objectives to be met, but 1 was violated:
	// 4. attainment >= 0.900
	//     Expected attainment 0.667 (2 of 3 offered) to be at least 0.900
	//     unqualified requests by failed criterion (a request can fail several): ttft 1
	//     terminal statuses: success 3
	//     SLO: TTFT <= 300 ms (from sent)
	//     worst unqualified requests:
	//         r3 success: scheduled 200 ms, sent 200 ms (lag 0 ms), TTFT 450 ms, TPOT 30 ms, E2E 481 ms; failed ttft
	// met: valid load; no lost requests; error rate <= 0.000
}

func ExampleHaveCapacityAtLeast() {
	point := func(rps float64, qualified int) capacity.Point {
		a := float64(qualified) / 100
		return capacity.Point{OfferedRPS: rps, Report: &report.Report{
			Offered: 100, Qualified: qualified, Attainment: &a, Valid: true,
		}}
	}
	sweep := capacity.NewSweep([]capacity.Point{point(2, 99), point(4, 96), point(8, 71)},
		capacity.Rule{MinAttainment: 0.95})
	g := printFailures()
	g.Expect(sweep).To(matchers.HaveCapacityAtLeast(4)) // passes
	g.Expect(sweep).To(matchers.HaveCapacityAtLeast(6))
	// Output:
	// Expected SLO capacity 4.000 req/s (highest passing tested offered rate; failing neighbor 8.000 req/s) to be at least 6.000 req/s
	// rule: attainment >= 0.950, load delivered
	// tested points:
	//     2.000 req/s: pass (attainment 0.990)
	//     4.000 req/s: pass (attainment 0.960)
	//     8.000 req/s: fail (attainment 0.710): attainment 0.710 (71 of 100 qualified) below 0.950
	// note: the boundary lies between 4 and 8 rps: refine between them and repeat the failing neighbor
}

func ExampleHaveNoRegressionFrom() {
	round := func(qualified int) *report.Report {
		a := float64(qualified) / 1000
		return &report.Report{Schema: report.ReportSchema, Offered: 1000, ProtocolSuccesses: 1000,
			Qualified: qualified, Attainment: &a, Valid: true}
	}
	baseline := []*report.Report{round(900), round(920), round(940)}
	candidate := []*report.Report{round(850), round(860), round(870)}
	g := printFailures()
	g.Expect(candidate).To(matchers.HaveNoRegressionFrom(baseline, compare.Tolerance{Name: "attainment", Value: 0.02}))
	// Output:
	// Expected no regression from the baseline, but 1 of 1 compared statistics regressed (positive change is worse):
	//     attainment: baseline 0.9200, candidate 0.8600, change +6.00 pt (interval [+3.12 pt, +8.67 pt], tolerance 2 pt): regression
	// rounds: baseline 3, candidate 3
	// method: Hartung–Knapp random-effects interval on the per-round differences over 3 rounds (log ratios for relative comparisons): each round weighs 1/(its own sampling variance, from its requests' order statistics, + the between-round variance, DerSimonian–Laird), Student's t on rounds − 1 degrees of freedom, the variance never below what the pooled requests allow; where a round gives no sampling variance (pooled gaps; a tail percentile whose order-statistic ranks pass the round's requests), the paired t-interval; attainment and error rate by score intervals on the pooled requests, each end the wider of Miettinen–Nurminen's binomial bound (normal quantile) and the quasi-binomial score bound (each side's variance times its rounds' dispersion, Pearson χ²/(rounds − 1), Student's t); latency percentiles count each failed request as slower than any success (the success-only figure is given beside)
	// family: Bonferroni over the 1 deciding comparison for the lower ends: each is a one-sided bound at 95%, and a regression needs one beyond its tolerance, so an A/A comparison reports any regression with probability at most 0.05; each upper end is a one-sided bound at 95%, and no_regression needs every one within its tolerance (an intersection–union test), so a candidate worse than a tolerance is called no_regression with probability at most 0.05
}

// An inconclusive comparison fails HaveNoRegression unless it is allowed:
// a 6-point drop whose interval, [3.19, 8.81] points, straddles a 7-point
// tolerance.
func ExampleRegressionMatcher_AllowInconclusive() {
	round := func(qualified int) *report.Report {
		a := float64(qualified) / 1000
		return &report.Report{Schema: report.ReportSchema, Offered: 1000, ProtocolSuccesses: 1000,
			Qualified: qualified, Attainment: &a, Valid: true}
	}
	c, _ := compare.Reports([]*report.Report{round(900), round(920), round(940)},
		[]*report.Report{round(850), round(860), round(870)},
		compare.Options{Tolerances: []compare.Tolerance{{Name: "attainment", Value: 0.07}}})
	strict, _ := matchers.HaveNoRegression().Match(c)
	allowed, _ := matchers.HaveNoRegression().AllowInconclusive().Match(c)
	fmt.Println(c.Verdict, strict, allowed)
	// Output:
	// inconclusive false true
}

// Six releases under the PyTorch HUD's ratio rule: p99 TTFT 100, 110, 90,
// 105, 130 and 120 ms. Only v5 is above 1.2 × the median of the three
// releases before it (126 ms); the newest, at 120 ms, is not, so the
// newest release is no regression.
func ExampleHaveNoRegressionAtNewestRelease() {
	var releases []history.Release
	for i, v := range []float64{100, 110, 90, 105, 130, 120} {
		releases = append(releases, history.Release{Name: fmt.Sprintf("v%d", i+1), Values: map[string]float64{"ttft_p99": v}})
	}
	h, _ := history.Analyze(releases, history.Options{Policy: history.PolicyRatio})
	ok, err := matchers.HaveNoRegressionAtNewestRelease().Match(h)
	fmt.Println(ok, err)
	// Output: true <nil>
}
