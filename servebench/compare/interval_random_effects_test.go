package compare

import (
	"math"
	"testing"
)

// Four rounds' differences 0, 0.4, 0.1, 0.3 with within-round variances
// 0.01, 0.02, 0.01, 0.02. Fixed-effect weights 100, 50, 100, 50 give the
// mean 45/300 = 0.15 and Cochran's Q = 2.25 + 3.125 + 0.25 + 1.125 = 6.75,
// so τ² = (6.75 − 3)/(300 − 25000/300) = 9/520. The random-effects
// weights are 520/14.2 and 520/19.4 (Σw = 126.8477), the mean is
// (36.6197·0.1 + 26.8041·0.7)/126.8477 = 0.176786, q = 1.034278 (above 1,
// so it stands), the standard error √(q/Σw) = 0.0902978, and the interval
// at 95 % takes t₃ = 3.182446.
func TestHartungKnappByHand(t *testing.T) {
	d, v := []float64{0, 0.4, 0.1, 0.3}, []float64{0.01, 0.02, 0.01, 0.02}
	near(t, "τ²", derSimonianLaird(d, v), 9.0/520, 1e-12)
	est := hartungKnapp(d, v, 0.95)
	sw := 2*520/14.2 + 2*520/19.4
	mu := (520/14.2*0.1 + 520/19.4*0.7) / sw
	near(t, "mean", est.mean, mu, 1e-12)
	near(t, "mean (decimal)", est.mean, 0.176786, 1e-6)
	var q float64
	for i := range d {
		q += (d[i] - mu) * (d[i] - mu) / (v[i] + 9.0/520)
	}
	q /= 3
	near(t, "q", q, 1.034278, 1e-6)
	half := 3.182446305284263 * math.Sqrt(q/sw)
	near(t, "low", est.lo, mu-half, 1e-9)
	near(t, "high", est.hi, mu+half, 1e-9)
	if est.df != 3 {
		t.Errorf("df %v, want 3", est.df)
	}
}

// Rounds that agree better than their requests predict (q < 1) keep the
// width the pooled requests give: q is raised to 1. Differences 0.1, 0.3,
// 0.2, 0 with variances 0.01, 0.02, 0.01, 0.02 have Q = 2.75 < 3, so τ² =
// 0, Σw = 300 and q = 2.75/3 < 1: the standard error is √(1/300).
func TestHartungKnappNeverBelowThePooledRequests(t *testing.T) {
	d, v := []float64{0.1, 0.3, 0.2, 0}, []float64{0.01, 0.02, 0.01, 0.02}
	if tau2 := derSimonianLaird(d, v); tau2 != 0 {
		t.Errorf("τ² = %v, want 0", tau2)
	}
	est := hartungKnapp(d, v, 0.95)
	near(t, "mean", est.mean, 0.15, 1e-12)
	near(t, "half-width", est.hi-est.mean, 3.182446305284263*math.Sqrt(1.0/300), 1e-9)
}

// The order-statistic variance of the median of 1…20 (ms): the rank's
// standard deviation is √(20·¼) = √5, the ranks 2√5 either side of 10 are
// ⌊10 − 4.47⌋ = 5 and ⌈14.47⌉ = 15, so the interval is [5, 15] ms, spanning
// 2·5/√5 = 2√5 standard deviations: se = ln 3/(2√5).
func TestPercentileLogVarianceFromOrderStatistics(t *testing.T) {
	var xs []float64
	for i := 1; i <= 20; i++ {
		xs = append(xs, float64(i))
	}
	v, ok := percentileLogVariance(xs, 50)
	se := math.Log(3) / (2 * math.Sqrt(5))
	if !ok {
		t.Fatal("no variance")
	}
	near(t, "variance", v, se*se, 1e-12)
	// Failures at the top (+Inf) leave the lower half: the last six
	// requests failed, so rank 15 is +Inf and the width runs from rank 5 to
	// the median's rank 10: ln(10/5) over √5 standard deviations.
	for i := 14; i < 20; i++ {
		xs[i] = math.Inf(1)
	}
	v, ok = percentileLogVariance(xs, 50)
	se = math.Log(2) / math.Sqrt(5)
	if !ok {
		t.Fatal("no variance with failures")
	}
	near(t, "variance with failures", v, se*se, 1e-12)
	zeros := make([]float64, 20)
	zeros[19] = 1
	if _, ok := percentileLogVariance(zeros, 50); ok {
		t.Error("a zero latency gave a log variance")
	}
}

// A tail percentile of a small round gives no order-statistic variance:
// p99 of 150 requests sits at rank 148.5 with rank standard deviation
// √(150·0.99·0.01) = 1.2186, and 2 of them above it is rank 150.94, past
// the sample; the caller falls back to the rounds' own spread. At 1,000
// requests the ranks ⌊990 − 6.29⌋ = 983 and ⌈996.29⌉ = 997 lie inside it,
// and with values equal to their ranks the variance is
// (ln(997/983)/((990 − 983 + 997 − 990)/3.1464))².
func TestTailPercentileOfSmallRoundGivesNoVariance(t *testing.T) {
	ranks := func(n int) []float64 {
		xs := make([]float64, n)
		for i := range xs {
			xs[i] = float64(i + 1)
		}
		return xs
	}
	if v, ok := percentileLogVariance(ranks(150), 99); ok {
		t.Errorf("p99 of 150 gave variance %v, want none", v)
	}
	v, ok := percentileLogVariance(ranks(1000), 99)
	if !ok {
		t.Fatal("p99 of 1000 gave no variance")
	}
	sd := math.Sqrt(1000 * 0.99 * 0.01)
	se := math.Log(997.0/983) / (14 / sd)
	near(t, "p99 of 1000", v, se*se, 1e-12)
	if _, ok := percentileLogVariance(ranks(150), 50); !ok {
		t.Error("p50 of 150 gave no variance")
	}
}

// The restricted maximum-likelihood proportions of the score test, by
// Farrington and Manning's closed form (a cubic in p1): 6 of 300 against 0
// of 300 with p1 − p2 = 0.01 gives θ = 1, a = 2, b = −(2 + 0.02 + 0.03) =
// −2.05, c = 0.0001 + 0.01·2.04 + 0.02 = 0.0405, d = −0.02·0.01·1.01 =
// −0.000202, whose root is p1 = 0.0100503, p2 = 0.0000503. With no event
// on either side the likelihood is largest at the edge: p2 = 0, p1 = δ.
func TestRestrictedMLEByHand(t *testing.T) {
	p1, p2 := restrictedMLE(6, 300, 0, 300, 0.01)
	near(t, "p1", p1, 0.0100503, 1e-7)
	near(t, "p2", p2, 0.0000503, 1e-7)
	near(t, "difference", p1-p2, 0.01, 1e-12)
	p1, p2 = restrictedMLE(0, 600, 0, 600, 0.01)
	near(t, "p1, no events", p1, 0.01, 1e-12)
	near(t, "p2, no events", p2, 0, 1e-12)
}
