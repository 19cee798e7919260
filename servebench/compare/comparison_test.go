package compare

import (
	"strings"
	"testing"

	"github.com/servebench/servebench/servebench"
)

// Three paired rounds of attainment: drops 0.02, 0.03, 0.04 have mean 0.03
// and standard deviation 0.01. With one comparison at confidence 0.95 the
// interval is two-sided at 90 %: t(0.95, 2 df) = 2.919986, half-width
// 2.919986 × 0.01 / √3 = 0.016859, interval [0.013141, 0.046859].
func TestPairedRoundsAttainment(t *testing.T) {
	base := []*servebench.Report{attainmentReport(90, 100), attainmentReport(92, 100), attainmentReport(94, 100)}
	cand := []*servebench.Report{attainmentReport(88, 100), attainmentReport(89, 100), attainmentReport(90, 100)}
	for _, tc := range []struct {
		tol  float64
		want Verdict
	}{{0.01, Regression}, {0.05, NoRegression}, {0.02, Inconclusive}} {
		c, err := Reports(base, cand, Options{Tolerances: []Tolerance{{"attainment", tc.tol}}})
		if err != nil {
			t.Fatal(err)
		}
		m := c.Comparisons[0]
		near(t, "baseline", m.Baseline, 0.92, 1e-12)
		near(t, "candidate", m.Candidate, 0.89, 1e-12)
		near(t, "change", m.Change, 0.03, 1e-12)
		near(t, "ci_low", m.CILow, 0.013141, 1e-6)
		near(t, "ci_high", m.CIHigh, 0.046859, 1e-6)
		if m.Verdict != tc.want || c.Verdict != tc.want || m.Kind != KindAbsolute {
			t.Errorf("tolerance %v: verdict %s (overall %s, kind %s), want %s", tc.tol, m.Verdict, c.Verdict, m.Kind, tc.want)
		}
		near(t, "interval level", c.IntervalLevel, 0.90, 1e-12)
		if c.BlindToRunVariance || !strings.Contains(c.Method, "paired t-interval") {
			t.Errorf("method %q, blind %v", c.Method, c.BlindToRunVariance)
		}
	}
}

// The rounds needed to decide: with the gap 0.01 between the mean 0.03 and
// the tolerance 0.02 and sd 0.01, m rounds give half-width t(0.95, m−1) ×
// 0.01/√m: m = 4 gives 2.353363/2 × 0.01 = 0.0118 (too wide), m = 5 gives
// 2.131847/√5 × 0.01 = 0.00953, so two more rounds.
func TestInconclusiveSaysHowManyMoreRounds(t *testing.T) {
	base := []*servebench.Report{attainmentReport(90, 100), attainmentReport(92, 100), attainmentReport(94, 100)}
	cand := []*servebench.Report{attainmentReport(88, 100), attainmentReport(89, 100), attainmentReport(90, 100)}
	c, err := Reports(base, cand, Options{Tolerances: []Tolerance{{"attainment", 0.02}}})
	if err != nil {
		t.Fatal(err)
	}
	if got := c.Comparisons[0].Decide; got != "about 2 more rounds would likely decide it" {
		t.Errorf("decide = %q", got)
	}
}

// A relative comparison works on log ratios: p50 TTFT 100 ms on every
// baseline round against 110, 121 and 133.1 ms gives log ratios ln 1.1,
// ln 1.21, ln 1.331 (mean ln 1.21 = 0.190620, sd ln 1.1 = 0.095310);
// half-width 2.919986 × 0.095310/√3 = 0.160680, so the change is +21 % and
// the interval [e^0.029940 − 1, e^0.351300 − 1] = [+3.039 %, +42.091 %].
func TestPairedRoundsRelativeOnLogScale(t *testing.T) {
	base := []*servebench.Report{ttftReport(90, 100, 200), ttftReport(100, 100, 300), ttftReport(50, 100, 100)}
	cand := []*servebench.Report{ttftReport(110, 110, 500), ttftReport(121, 121, 121), ttftReport(1, 133.1, 133.1)}
	for _, tc := range []struct {
		tol  float64
		want Verdict
	}{{0.01, Regression}, {0.05, Inconclusive}, {0.5, NoRegression}} {
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
	c, err := Reports([]*servebench.Report{attainmentReport(56, 70)}, []*servebench.Report{attainmentReport(48, 80)},
		Options{Confidence: 0.975, Tolerances: []Tolerance{{"attainment", 0.01}}})
	if err != nil {
		t.Fatal(err)
	}
	m := c.Comparisons[0]
	near(t, "change", m.Change, 0.2, 1e-12)
	near(t, "ci_low", m.CILow, 0.0524, 5e-5)
	near(t, "ci_high", m.CIHigh, 0.3339, 5e-5)
	if m.Verdict != Regression || !c.BlindToRunVariance || !strings.Contains(c.Method, "blind to run-to-run variance") {
		t.Errorf("verdict %s, blind %v, method %q", m.Verdict, c.BlindToRunVariance, c.Method)
	}
}

// Seven default comparisons at 0.95: each interval two-sided at
// 1 − 2 × 0.05/7 = 0.985714.
func TestDefaultFamilyIsBonferroni(t *testing.T) {
	var xs []float64
	for i := 1; i <= 50; i++ {
		xs = append(xs, float64(i))
	}
	r := ttftReport(xs...)
	for _, m := range []servebench.Metric{servebench.MetricTPOT, servebench.MetricE2E} {
		r.Percentiles[m] = servebench.Distribution{N: 50}
	}
	for i := range r.Requests {
		r.Requests[i].TPOTMS, r.Requests[i].E2EMS = r.Requests[i].TTFTMS, r.Requests[i].TTFTMS
	}
	c, err := Reports([]*servebench.Report{r}, []*servebench.Report{r}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	near(t, "interval level", c.IntervalLevel, 1-0.1/7, 1e-12)
	if len(c.Comparisons) != 7 || !strings.HasPrefix(c.Family, "Bonferroni over 7 comparisons") {
		t.Fatalf("%d comparisons, family %q", len(c.Comparisons), c.Family)
	}
	// Identical sides: every change is zero and its interval holds zero.
	for _, m := range c.Comparisons {
		if m.Change != 0 || m.CILow > 0 || m.CIHigh < 0 {
			t.Errorf("%s: change %v interval [%v, %v] on identical runs", m.Name, m.Change, m.CILow, m.CIHigh)
		}
	}
}

func TestExitCodes(t *testing.T) {
	base := []*servebench.Report{attainmentReport(90, 100), attainmentReport(92, 100), attainmentReport(94, 100)}
	cand := []*servebench.Report{attainmentReport(88, 100), attainmentReport(89, 100), attainmentReport(90, 100)}
	code := func(tol float64, strict bool) int {
		c, err := Reports(base, cand, Options{Tolerances: []Tolerance{{"attainment", tol}}})
		if err != nil {
			t.Fatal(err)
		}
		return c.ExitCode(strict)
	}
	if got := code(0.01, false); got != 5 {
		t.Errorf("regression exits %d, want 5", got)
	}
	if got := code(0.02, false); got != 0 {
		t.Errorf("inconclusive exits %d, want 0", got)
	}
	if got := code(0.02, true); got != 6 {
		t.Errorf("inconclusive --strict exits %d, want 6", got)
	}
	if got := code(0.05, true); got != 0 {
		t.Errorf("no_regression exits %d, want 0", got)
	}
	cand[1].Valid, cand[1].InvalidReasons = false, []string{"3 of 100 offered requests were sent late"}
	if got := code(0.01, false); got != 2 {
		t.Errorf("an invalid run exits %d, want 2 (over the regression)", got)
	}
}

func TestDifferentWorkloadsAreRefusedUnlessAllowed(t *testing.T) {
	b, c := attainmentReport(9, 10), attainmentReport(9, 10)
	c.Inputs.WorkloadSHA256 = "w2"
	if _, err := Reports([]*servebench.Report{b}, []*servebench.Report{c}, Options{}); err == nil || !strings.Contains(err.Error(), "--allow-different-workloads") {
		t.Fatalf("err = %v", err)
	}
	cmp, err := Reports([]*servebench.Report{b}, []*servebench.Report{c}, Options{AllowDifferentWorkloads: true, Tolerances: []Tolerance{{"attainment", 0.01}}})
	if err != nil || len(cmp.Notes) != 1 {
		t.Fatalf("err %v notes %v", err, cmp)
	}
	c.Inputs.WorkloadSHA256 = "w1"
	c.SLO.TTFT = 500e6
	if _, err := Reports([]*servebench.Report{b}, []*servebench.Report{c}, Options{}); err == nil || !strings.Contains(err.Error(), "SLO") {
		t.Fatalf("different SLOs: err = %v", err)
	}
}

func TestOneRoundAgainstSeveralIsRefused(t *testing.T) {
	r := attainmentReport(9, 10)
	_, err := Reports([]*servebench.Report{r}, []*servebench.Report{r, r}, Options{})
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

// Unequal round counts get Welch's interval. Baseline attainment 0.90 and
// 0.94 (variance 0.0008, so 0.0004 for the mean), candidate 0.90 three
// times (variance 0): the standard error is 0.02 with Welch's 1 degree of
// freedom, t(0.95, 1) = 6.313752, so the drop 0.02 has the interval
// 0.02 ± 0.126275.
func TestUnequalRoundsUseWelch(t *testing.T) {
	c, err := Reports([]*servebench.Report{attainmentReport(90, 100), attainmentReport(94, 100)},
		[]*servebench.Report{attainmentReport(90, 100), attainmentReport(90, 100), attainmentReport(90, 100)},
		Options{Tolerances: []Tolerance{{"attainment", 0.01}}})
	if err != nil {
		t.Fatal(err)
	}
	m := c.Comparisons[0]
	near(t, "change", m.Change, 0.02, 1e-12)
	near(t, "ci_low", m.CILow, 0.02-0.126275, 1e-6)
	near(t, "ci_high", m.CIHigh, 0.02+0.126275, 1e-6)
	if m.Verdict != Inconclusive || !strings.Contains(c.Method, "Welch") {
		t.Errorf("verdict %s, method %q", m.Verdict, c.Method)
	}
}

// An embeddings run defines no TTFT or TPOT: the default comparisons are
// attainment and E2E only.
func TestDefaultsFollowTheEndpoint(t *testing.T) {
	r := attainmentReport(50, 50)
	r.Endpoint = servebench.EndpointEmbeddings
	for i := 1; i <= 50; i++ {
		r.Requests = append(r.Requests, servebench.RequestScore{Status: servebench.StatusSuccess, E2EMS: fptr(float64(i))})
	}
	r.Percentiles = map[servebench.Metric]servebench.Distribution{servebench.MetricE2E: {N: 50}}
	c, err := Reports([]*servebench.Report{r}, []*servebench.Report{r}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, m := range c.Comparisons {
		names = append(names, m.Name)
	}
	if strings.Join(names, " ") != "attainment e2e_p50 e2e_p99" {
		t.Errorf("comparisons %v", names)
	}
}
