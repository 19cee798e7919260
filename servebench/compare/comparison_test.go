package compare

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/servebench/report"
)

// Three rounds of attainment of 1000 requests each: baseline 900, 920,
// 940 qualified, candidate 850, 860, 870; the drop is 0.06. Each side's
// dispersion is Pearson's χ²/2 about p̃ = (Σx + ½)/(Σn + 1): baseline
// p̃ = 2760.5/3001 = 0.919860, χ² = (19.86² + 0.14² + 20.14²)/(1000 ×
// 0.919860 × 0.080140) = 10.853, φ = 5.426516; candidate p̃ =
// 2580.5/3001, φ = 0.830149. One comparison at 0.95: each end is a
// one-sided bound at 95 %, z = 1.644854 for the binomial score test and
// t(0.95, 4) = 2.131847 for the quasi one. At δ = 0.031243 the
// proportions of largest likelihood with p_b − p_c = δ are 0.907451 and
// 0.876208 (Farrington and Manning's closed form), the quasi variance
// (5.426516 × 0.907451 × 0.092549 + 0.830149 × 0.876208 × 0.123792)/3000
// × 6000/5999 = 1.81958e-4, and (0.06 − δ)/√that = 2.131847: the lower
// end. At δ = 0.086656 (0.928853 and 0.842197) the quasi variance is
// 1.56340e-4 and the statistic −2.131847: the upper end. The binomial
// test gives the narrower [0.046815, 0.073300], so both ends are the
// quasi test's.
func TestProportionScoreAttainmentAcrossRounds(t *testing.T) {
	base := []*report.Report{attainmentReport(900, 1000), attainmentReport(920, 1000), attainmentReport(940, 1000)}
	cand := []*report.Report{attainmentReport(850, 1000), attainmentReport(860, 1000), attainmentReport(870, 1000)}
	for _, tc := range []struct {
		tol  float64
		want Verdict
	}{{0.02, Regression}, {0.06 + 1e-9, Inconclusive}, {0.09, NoRegression}} {
		c, err := Reports(base, cand, Options{Tolerances: []Tolerance{{"attainment", tc.tol}}})
		if err != nil {
			t.Fatal(err)
		}
		m := c.Comparisons[0]
		near(t, "baseline", m.Baseline, 0.92, 1e-12)
		near(t, "candidate", m.Candidate, 0.86, 1e-12)
		near(t, "change", m.Change, 0.06, 1e-12)
		near(t, "ci_low", m.CILow, 0.031243, 1e-6)
		near(t, "ci_high", m.CIHigh, 0.086656, 1e-6)
		near(t, "detectable", m.MinDetectableEffect, tc.tol+0.06-0.031243, 1e-6)
		if m.Verdict != tc.want || c.Verdict != tc.want || m.Kind != KindAbsolute {
			t.Errorf("tolerance %v: verdict %s (overall %s, kind %s), want %s", tc.tol, m.Verdict, c.Verdict, m.Kind, tc.want)
		}
		near(t, "interval level", c.IntervalLevel, 0.90, 1e-12)
		if c.BlindToRunVariance || !strings.Contains(c.Method, "quasi-binomial score bound") {
			t.Errorf("method %q, blind %v", c.Method, c.BlindToRunVariance)
		}
	}
}

// Two extra failures per round on 100 requests, every round alike: the
// per-round differences are all 0.02, so a t-interval on them would have
// zero width. The score intervals do not: 6 of 300 against 0 of 300. The
// rounds agree better than binomial noise (candidate p̃ = 6.5/301,
// φ = 3 × (2 − 2.1595)²/(2.1595 × 0.978405)/2 = 0.0181; baseline 0.2496),
// so the binomial test,
// z = 1.644854, gives both ends. With no baseline failure the proportions
// of largest likelihood with p_c − p_b = δ ≥ 0 are p_b = 0, p_c = δ, and
// the variance is δ(1 − δ)/300 × 600/599 = δ(1 − δ)·2/599: the ends solve
// (0.02 − δ)² = z²·δ(1 − δ)·2/599, a quadratic whose roots are
// δ = 0.010371 and 0.038223.
func TestCountIntervalsAreNeverOfZeroWidth(t *testing.T) {
	errs := func(failed int) *report.Report {
		r := attainmentReport(100-failed, 100)
		r.ProtocolSuccesses = 100 - failed
		return r
	}
	base := []*report.Report{errs(0), errs(0), errs(0)}
	cand := []*report.Report{errs(2), errs(2), errs(2)}
	c, err := Reports(base, cand, Options{Tolerances: []Tolerance{{"error_rate", 0.015}}})
	if err != nil {
		t.Fatal(err)
	}
	m := c.Comparisons[0]
	near(t, "change", m.Change, 0.02, 1e-12)
	near(t, "ci_low", m.CILow, 0.010371, 1e-6)
	near(t, "ci_high", m.CIHigh, 0.038223, 1e-6)
	if m.Verdict != Inconclusive {
		t.Errorf("verdict %s, want inconclusive", m.Verdict)
	}
}

// The plug-in decide probability, with the rounds below against a 7-point
// tolerance: the gap to it is 0.01 and the standard error 0.013172 at
// three rounds per side. With m rounds the standard error is
// 0.013172·√(3/m) and the critical value t(0.95, 4m/3); the interval
// decides with probability Φ((0.01 − t·se)/se) + Φ((−0.01 − t·se)/se),
// which first reaches 0.8 at m = 3 + 31 = 34: se 0.0039127, t(0.95,
// 45.33) = 1.6792, Φ(0.8765) = 0.8097; at 30 more it is 0.7989.
func TestPlugInDecideProbabilityByHand(t *testing.T) {
	const se, df = 0.013172, 4.0
	crit := func(f float64) float64 { return tQuantile(0.95, df*f) }
	est := estimate{mean: 0.06, critAt: crit, df: df,
		halfWidthAt: func(f float64) float64 { return crit(f) * se / math.Sqrt(f) }}
	near(t, "P(decide) at 34 rounds", decideProbability(est, 0.07, 34.0/3), 0.8097, 5e-4)
	near(t, "P(decide) at 33 rounds", decideProbability(est, 0.07, 33.0/3), 0.7989, 5e-4)
}

// For a proportion the advice names the cheaper lever, requests a round:
// the quasi-binomial interval pools every request, so the evidence scales
// with requests a round as with rounds. It names the fewest requests (in
// steps of 5 %) at which its decide probability reaches 80 %: the plug-in
// answer above needs 34/3 times the evidence, about 11,300 requests a
// round of these 3 rounds; the predictive one allows for the noise's
// uncertainty and needs a little more.
func TestInconclusiveProportionNamesRequestsARound(t *testing.T) {
	base := []*report.Report{attainmentReport(900, 1000), attainmentReport(920, 1000), attainmentReport(940, 1000)}
	cand := []*report.Report{attainmentReport(850, 1000), attainmentReport(860, 1000), attainmentReport(870, 1000)}
	c, err := Reports(base, cand, Options{Tolerances: []Tolerance{{"attainment", 0.07}}})
	if err != nil {
		t.Fatal(err)
	}
	got := c.Comparisons[0].Decide
	var n, have, rounds int
	if _, err := fmt.Sscanf(got, "about %d requests a round (these rounds have %d) would decide it with probability 80%% at %d rounds", &n, &have, &rounds); err != nil ||
		have != 1000 || rounds != 3 || !strings.HasSuffix(got, "for a proportion more requests a round are the cheaper lever, not more rounds") {
		t.Fatalf("decide = %q", got)
	}
	if n <= 11300 {
		t.Errorf("advised %d requests a round, want more than the plug-in's 34/3 × 1000", n)
	}
	est := proportionScore(counts{x: []int{900, 920, 940}, n: []int{1000, 1000, 1000}},
		counts{x: []int{850, 860, 870}, n: []int{1000, 1000, 1000}}, true, 2*c.LowerBoundLevel-1)
	thr := 0.07
	if p := decideProbabilityPredictive(est, thr, float64(n)/1000); p < decidePower {
		t.Errorf("at %d requests a round the decide probability is %.3f, below %.2f", n, p, decidePower)
	}
	if p := decideProbabilityPredictive(est, thr, float64(n)/1000/1.06); p >= decidePower {
		t.Errorf("at %.0f requests a round the decide probability is already %.3f", float64(n)/1.06, p)
	}
}

// A relative comparison works on log ratios (five requests a round, so
// that fifteen pooled a side leave 15 − 8 = 7 beyond p50): p50 TTFT 100 ms on every
// baseline round against 110, 121 and 133.1 ms gives log ratios ln 1.1,
// ln 1.21, ln 1.331 (mean ln 1.21 = 0.190620, sd ln 1.1 = 0.095310);
// half-width 2.919986 × 0.095310/√3 = 0.160680, so the change is +21 % and
// the interval [e^0.029940 − 1, e^0.351300 − 1] = [+3.039 %, +42.091 %].
func TestPairedRoundsRelativeOnLogScale(t *testing.T) {
	base := []*report.Report{ttftReport(90, 95, 100, 200, 300), ttftReport(100, 100, 100, 300, 300), ttftReport(50, 60, 100, 100, 100)}
	cand := []*report.Report{ttftReport(110, 110, 110, 500, 500), ttftReport(121, 121, 121, 121, 121), ttftReport(1, 2, 133.1, 133.1, 133.1)}
	for _, tc := range []struct {
		tol  float64
		want Verdict
	}{{0.1, Inconclusive}, {0.5, NoRegression}} {
		c, err := Reports(base, cand, Options{Tolerances: []Tolerance{{"ttft_p50", tc.tol}}})
		if err != nil {
			t.Fatal(err)
		}
		m := c.Comparisons[0]
		near(t, "baseline", m.Baseline, 100, 1e-9)
		near(t, "candidate", m.Candidate, (110+121+133.1)/3, 1e-9)
		near(t, "change", m.Change, 0.21, 1e-9)
		near(t, "ci_low", m.CILow, 0.03039, 1e-5)
		near(t, "ci_high", m.CIHigh, 0.42091, 1e-5)
		if m.Verdict != tc.want || m.Kind != KindRelative || m.Unit != "ms" {
			t.Errorf("tolerance %v: verdict %s kind %s unit %s, want %s", tc.tol, m.Verdict, m.Kind, m.Unit, tc.want)
		}
	}
}

// Newcombe's own example (Statistics in Medicine 1998, 17:873, example a):
// 56/70 − 48/80 = 0.2 with the hybrid score 95 % interval [0.0524, 0.3339].
// One comparison at confidence 0.975 gives a two-sided 95 % interval.
func TestOneRoundAttainmentUsesNewcombe(t *testing.T) {
	c, err := Reports([]*report.Report{attainmentReport(56, 70)}, []*report.Report{attainmentReport(48, 80)},
		Options{Confidence: 0.975, Tolerances: []Tolerance{{"attainment", 0.01}}, AllowDifferentWorkloads: true})
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"round 1: the request count differs: baseline 70, candidate 80"}; !slices.Equal(c.AllowedDifferences, want) {
		t.Errorf("allowed differences %q, want %q", c.AllowedDifferences, want)
	}
	m := c.Comparisons[0]
	near(t, "change", m.Change, 0.2, 1e-12)
	near(t, "ci_low", m.CILow, 0.0524, 5e-5)
	near(t, "ci_high", m.CIHigh, 0.3339, 5e-5)
	if m.Verdict != Advisory || m.Leaning != Regression || c.Verdict != Advisory || !c.BlindToRunVariance || !strings.Contains(c.Method, "blind to run-to-run variance") {
		t.Errorf("verdict %s leaning %s (overall %s), blind %v, method %q", m.Verdict, m.Leaning, c.Verdict, c.BlindToRunVariance, c.Method)
	}
}

// Eight default comparisons at 0.95: each interval two-sided at
// 1 − 2 × 0.05/8 = 0.9875. With 50 requests, p99 has 50 − ⌈49.5⌉ = 0
// observations beyond it: insufficient data, judgeable from 500 a side.
func TestDefaultFamilyIsBonferroni(t *testing.T) {
	var xs []float64
	for i := 1; i <= 50; i++ {
		xs = append(xs, float64(i))
	}
	r := ttftReport(xs...)
	for _, m := range []record.Metric{record.MetricTPOT, record.MetricE2E} {
		r.Percentiles[m] = report.Distribution{N: 50}
	}
	for i := range r.Requests {
		r.Requests[i].TPOTMS, r.Requests[i].E2EMS = r.Requests[i].TTFTMS, r.Requests[i].TTFTMS
	}
	c, err := Reports([]*report.Report{r}, []*report.Report{r}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	// Eight statistics are compared; the four of DefaultDecide decide, so
	// the family is theirs: the lower ends at 1 − 0.05/4, the upper ends
	// at 1 − 0.05, the interval two-sided at their sum less 1.
	near(t, "lower bound level", c.LowerBoundLevel, 1-0.05/4, 1e-12)
	near(t, "upper bound level", c.UpperBoundLevel, 0.95, 1e-12)
	near(t, "interval level", c.IntervalLevel, 1-0.05/4-0.05, 1e-12)
	if len(c.Comparisons) != 8 || !strings.HasPrefix(c.Family, "Bonferroni over the 4 deciding comparisons") {
		t.Fatalf("%d comparisons, family %q", len(c.Comparisons), c.Family)
	}
	// Identical sides: every change is zero and its interval holds zero.
	for _, m := range c.Comparisons {
		if strings.HasSuffix(m.Name, "_p99") {
			if m.Leaning != InsufficientData || m.Needed != 500 || !strings.Contains(m.Decide, "p99 needs at least 500 observations a side") {
				t.Errorf("%s: leaning %s, needed %d, %q; want insufficient_data, 500", m.Name, m.Leaning, m.Needed, m.Decide)
			}
			continue
		}
		if m.Change != 0 || m.CILow > 0 || m.CIHigh < 0 {
			t.Errorf("%s: change %v interval [%v, %v] on identical runs", m.Name, m.Change, m.CILow, m.CIHigh)
		}
	}
}

// The verdict codes: 5 regression, 6 inconclusive (0 when allowed), 0
// no_regression, 2 when a run is not valid load (over the regression), and
// 6 for one round per side whatever the interval leans to.
func TestExitCodes(t *testing.T) {
	base := []*report.Report{attainmentReport(900, 1000), attainmentReport(920, 1000), attainmentReport(940, 1000)}
	cand := []*report.Report{attainmentReport(850, 1000), attainmentReport(860, 1000), attainmentReport(870, 1000)}
	code := func(tol float64, allow bool) int {
		c, err := Reports(base, cand, Options{Tolerances: []Tolerance{{"attainment", tol}}, AllowInconclusive: allow})
		if err != nil {
			t.Fatal(err)
		}
		return c.ExitCode()
	}
	if got := code(0.02, false); got != 5 {
		t.Errorf("regression exits %d, want 5", got)
	}
	if got := code(0.07, false); got != 6 {
		t.Errorf("inconclusive exits %d, want 6", got)
	}
	if got := code(0.07, true); got != 0 {
		t.Errorf("inconclusive allowed exits %d, want 0", got)
	}
	if got := code(0.09, false); got != 0 {
		t.Errorf("no_regression exits %d, want 0", got)
	}
	one, err := Reports(base[:1], cand[:1], Options{Tolerances: []Tolerance{{"attainment", 0.5}}, AllowInconclusive: true})
	if err != nil {
		t.Fatal(err)
	}
	if one.Verdict != Advisory || one.Comparisons[0].Verdict != Advisory || one.Comparisons[0].Leaning != NoRegression || one.ExitCode() != 6 {
		t.Errorf("one round: verdict %s, metric %s leaning %s, exit %d; want advisory, leaning no_regression, exit 6",
			one.Verdict, one.Comparisons[0].Verdict, one.Comparisons[0].Leaning, one.ExitCode())
	}
	cand[1].Valid, cand[1].InvalidReasons = false, []string{"3 of 100 offered requests were sent late"}
	if got := code(0.02, false); got != 2 {
		t.Errorf("an invalid run exits %d, want 2 (over the regression)", got)
	}
}

func TestDifferentWorkloadsAreRefusedUnlessAllowed(t *testing.T) {
	b, c := attainmentReport(9, 10), attainmentReport(9, 10)
	c.Inputs.WorkloadSHA256 = "w2"
	if _, err := Reports([]*report.Report{b}, []*report.Report{c}, Options{}); err == nil || !strings.Contains(err.Error(), "--allow-different-workloads") {
		t.Fatalf("err = %v", err)
	}
	cmp, err := Reports([]*report.Report{b}, []*report.Report{c}, Options{AllowDifferentWorkloads: true, Tolerances: []Tolerance{{"attainment", 0.01}}})
	if err != nil || len(cmp.AllowedDifferences) != 1 || !strings.Contains(cmp.AllowedDifferences[0], "workload w2 differs") {
		t.Fatalf("err %v allowed differences %q", err, cmp.AllowedDifferences)
	}
	c.Inputs.WorkloadSHA256 = "w1"
	c.SLO.TTFT = 500e6
	if _, err := Reports([]*report.Report{b}, []*report.Report{c}, Options{}); err == nil || !strings.Contains(err.Error(), "SLO") {
		t.Fatalf("different SLOs: err = %v", err)
	}
}

func TestOneRoundAgainstSeveralIsRefused(t *testing.T) {
	r := attainmentReport(9, 10)
	_, err := Reports([]*report.Report{r}, []*report.Report{r, r}, Options{})
	if err == nil || !strings.Contains(err.Error(), "1 rounds and the candidate 2") {
		t.Fatalf("err = %v", err)
	}
}

func TestParseTolerance(t *testing.T) {
	for in, want := range map[string]Tolerance{
		"ttft_p99=10%":     {"ttft_p99", 0.1},
		"attainment=0.02":  {"attainment", 0.02},
		"e2e_p99.9=0.1":    {"e2e_p99.9", 0.1},
		"qualified_rps=5%": {"qualified_rps", 0.05},
	} {
		got, err := ParseTolerance(in)
		if err != nil || got.Name != want.Name {
			t.Errorf("%s: %v, %v", in, got, err)
		}
		near(t, in, got.Value, want.Value, 1e-12)
	}
	for _, in := range []string{"ttft_p99", "nope=1", "ttft_p99=-1", "ttft_p99=x%", "ttft_p0=1", "cost_p50=1"} {
		if _, err := ParseTolerance(in); err == nil {
			t.Errorf("%s: no error", in)
		}
	}
}

// Unequal round counts get Welch's interval on log values. Baseline p50
// TTFT 100 and 121 ms (log variance (ln 1.21)²/2 = 0.018168, so 0.009084
// for the mean), candidate 110 ms three times (variance 0): the standard
// error is √0.009084 = ln 1.1 = 0.095310 with Welch's 1 degree of freedom,
// t(0.95, 1) = 6.313752, half-width 0.601766. The change is ln 110 −
// (ln 100 + ln 121)/2 = 0, the interval [e^−0.601766 − 1, e^0.601766 − 1]
// = [−45.216 %, +82.534 %]. The run-to-run noise pooled over both sides
// is e^√((0.018168 + 0)/3) − 1 = e^0.077821 − 1 = 8.093 %; against a 10 %
// tolerance the smallest detectable change is 1.1 × e^0.601766 − 1 =
// 100.787 %.
func TestUnequalRoundsUseWelch(t *testing.T) {
	flat := func(v float64) *report.Report { return ttftReport(v, v, v, v, v) }
	c, err := Reports([]*report.Report{flat(100), flat(121)}, []*report.Report{flat(110), flat(110), flat(110)},
		Options{Tolerances: []Tolerance{{"ttft_p50", 0.1}}})
	if err != nil {
		t.Fatal(err)
	}
	m := c.Comparisons[0]
	near(t, "change", m.Change, 0, 1e-12)
	near(t, "ci_low", m.CILow, -0.452157, 1e-5)
	near(t, "ci_high", m.CIHigh, 0.82534, 1e-5)
	if m.Verdict != Inconclusive || !strings.Contains(c.Method, "Welch") {
		t.Errorf("verdict %s, method %q", m.Verdict, c.Method)
	}
	near(t, "noise", *m.Noise, 0.08093, 1e-5)
	near(t, "detectable", m.MinDetectableEffect, 1.00787, 1e-5)
}

// A tolerance below the measured run-to-run noise, or of zero, is refused,
// with the noise in the message: attainment 0.90 and 0.94 against 0.90
// three times has the pooled standard deviation √((1 × 0.0008 + 2 ×
// 0)/3) = 0.016330 per round.
func TestToleranceBelowNoiseIsRefused(t *testing.T) {
	base := []*report.Report{attainmentReport(90, 100), attainmentReport(94, 100)}
	cand := []*report.Report{attainmentReport(90, 100), attainmentReport(90, 100), attainmentReport(90, 100)}
	_, err := Reports(base, cand, Options{Tolerances: []Tolerance{{"attainment", 0.01}}})
	if err == nil || !strings.Contains(err.Error(), "tolerance 1 pt on attainment is below the run-to-run noise measured in the rounds (standard deviation 1.63 pt per round") {
		t.Errorf("err = %v", err)
	}
	_, err = Reports(base, cand, Options{Tolerances: []Tolerance{{"attainment", 0}}})
	if err == nil || !strings.Contains(err.Error(), "tolerance 0 on attainment: want a positive") {
		t.Errorf("zero tolerance: err = %v", err)
	}
	if _, err := ParseTolerance("ttft_p99=0%"); err == nil {
		t.Error("ParseTolerance accepted 0%")
	}
}

// An embeddings run defines no TTFT or TPOT: the default comparisons are
// attainment and E2E only.
func TestDefaultsFollowTheEndpoint(t *testing.T) {
	r := attainmentReport(50, 50)
	r.Endpoint = record.EndpointEmbeddings
	for i := 1; i <= 50; i++ {
		r.Requests = append(r.Requests, report.RequestScore{Status: record.StatusSuccess, E2EMS: fptr(float64(i))})
	}
	r.Percentiles = map[record.Metric]report.Distribution{record.MetricE2E: {N: 50}}
	c, err := Reports([]*report.Report{r}, []*report.Report{r}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, m := range c.Comparisons {
		names = append(names, m.Name)
	}
	if strings.Join(names, " ") != "attainment error_rate e2e_p50 e2e_p99" {
		t.Errorf("comparisons %v", names)
	}
}

// A default tolerance below the measured noise is not the user's choice:
// the comparison goes on and a note names the noise and the tolerance to
// give instead. The same rounds as above: attainment's default tolerance,
// 1 point, is below its 1.63-point noise per round.
func TestDefaultToleranceBelowNoiseIsNotedNotRefused(t *testing.T) {
	// Embeddings runs, so the defaults are attainment, error rate and E2E,
	// whose 100 equal values per round have no noise.
	rep := func(qualified int) *report.Report {
		r := attainmentReport(qualified, 100)
		r.Endpoint = record.EndpointEmbeddings
		for i := 1; i <= 100; i++ {
			r.Requests = append(r.Requests, report.RequestScore{Status: record.StatusSuccess, E2EMS: fptr(float64(i))})
		}
		r.Percentiles = map[record.Metric]report.Distribution{record.MetricE2E: {N: 100}}
		return r
	}
	base := []*report.Report{rep(90), rep(94)}
	cand := []*report.Report{rep(90), rep(90), rep(90)}
	c, err := Reports(base, cand, Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := "the default tolerance 1 pt on attainment is below the run-to-run noise measured in the rounds (standard deviation 1.63 pt per round"
	found := false
	for _, n := range c.Notes {
		found = found || strings.Contains(n, want)
	}
	if !found {
		t.Errorf("notes %q lack %q", c.Notes, want)
	}
}
