package compare

import (
	"math/rand/v2"
	"testing"
)

// TestMoreRoundsAdviceDecidesAsOftenAsItSays simulates the advice's own
// promise, as a user acts on it: each side has 4 rounds whose per-round
// values are normal with a standard deviation of 0.7 or 1 times the 5 %
// tolerance, the interval is family-wise over the 8 statistics ab compares
// by default, and the candidate's true change is 0, twice or four times
// the tolerance. Where a comparison is inconclusive and the advice names N
// extra rounds (at most 80 here), N rounds are added to those same rounds;
// the comparison must then decide in at least 80 % of the cases, the
// probability the advice states, for each true change. It does so for
// both intervals the rounds are judged with: the paired t-interval of
// equal round counts (ab's), and Welch's. The draws are seeded, so the
// counts are the same on every run.
//
// A true change within about half a tolerance of it is left out: no
// number of rounds decides that often, and the advice cannot know the
// change is there (a separate run of this simulation at 2.5 % against
// 5 %, with 1,000 trials and at most 40 extra rounds, saw the advised
// rounds decide 48 to 66 % of the time).
func TestMoreRoundsAdviceDecidesAsOftenAsItSays(t *testing.T) {
	if testing.Short() {
		t.Skip("a simulation of 6 × 800 comparisons")
	}
	const tolerance, rounds, trials, limit = 0.05, 4, 800, 80
	level := 1 - 0.05/8
	for _, kind := range []string{"paired", "welch"} {
		for _, noise := range []float64{0.7, 1} {
			for _, change := range []float64{0, 2 * tolerance, 4 * tolerance} {
				s := adviceSimulation{rng: rand.New(rand.NewPCG(7, 11)), sigma: noise * tolerance, change: change, paired: kind == "paired", level: level}
				advised, hits := 0, 0
				for range trials {
					s.start(rounds)
					est := s.estimate()
					if est.lo > tolerance || est.hi < tolerance {
						continue
					}
					extra, ok := roundsToDecide(est, tolerance, rounds, limit)
					if !ok {
						continue
					}
					advised++
					s.add(extra)
					if e := s.estimate(); e.lo > tolerance || e.hi < tolerance {
						hits++
					}
				}
				if advised < 20 {
					t.Fatalf("%s, noise %g× the tolerance, true change %g: only %d comparisons were advised; the simulation no longer tests the advice", kind, noise, change, advised)
				}
				if rate := float64(hits) / float64(advised); rate < decidePower {
					t.Errorf("%s, noise %g× the tolerance, true change %g: the advised rounds decided %d of %d (%.2f), want at least %.2f", kind, noise, change, hits, advised, rate, decidePower)
				}
				t.Logf("%s, noise %g× the tolerance, true change %g: the advised rounds decided %d of %d", kind, noise, change, hits, advised)
			}
		}
	}
}

// adviceSimulation draws per-round values for the two sides of a
// comparison and judges them as compare does.
type adviceSimulation struct {
	rng                  *rand.Rand
	sigma, change, level float64
	paired               bool
	baseline, candidate  []float64
}

func (s *adviceSimulation) start(rounds int) {
	s.baseline, s.candidate = s.baseline[:0], s.candidate[:0]
	s.add(rounds)
}

func (s *adviceSimulation) add(rounds int) {
	for range rounds {
		s.baseline = append(s.baseline, s.sigma*s.rng.NormFloat64())
		s.candidate = append(s.candidate, s.change+s.sigma*s.rng.NormFloat64())
	}
}

func (s *adviceSimulation) estimate() estimate {
	if !s.paired {
		return welchT(s.baseline, s.candidate, s.level)
	}
	d := make([]float64, len(s.baseline))
	for i := range d {
		d[i] = s.candidate[i] - s.baseline[i]
	}
	return pairedT(d, s.level)
}

// Continuing rounds that sit far from the tolerance decides at once; rounds
// whose mean sits on it almost never decide, however many are added; and
// the same rounds give the same probability.
func TestContinuedDecideProbabilityAtTheExtremes(t *testing.T) {
	far := pairedT([]float64{0.19, 0.20, 0.21, 0.20}, 1-0.05/8)
	if p := decideProbabilityContinued(far.rounds, 0.05, 1, continuedNoiseBound); p < 0.99 {
		t.Errorf("mean 0.20 with spread 0.008 against 0.05: P(decide) after 1 more round %.3f, want about 1", p)
	}
	on := pairedT([]float64{0.04, 0.06, 0.03, 0.07}, 1-0.05/8)
	for _, extra := range []int{1, 10, 40} {
		p := decideProbabilityContinued(on.rounds, 0.05, extra, continuedNoiseBound)
		if p >= decidePower {
			t.Errorf("mean on the tolerance: P(decide) after %d more rounds %.3f, want below %.2f", extra, p, decidePower)
		}
		if again := decideProbabilityContinued(on.rounds, 0.05, extra, continuedNoiseBound); again != p {
			t.Errorf("after %d more rounds: %v, then %v for the same rounds", extra, p, again)
		}
	}
	welch := welchT([]float64{0, 0.01, -0.01, 0}, []float64{0.19, 0.20, 0.21, 0.20}, 1-0.05/8)
	if p := decideProbabilityContinued(welch.rounds, 0.05, 2, continuedNoiseBound); p < 0.99 {
		t.Errorf("Welch, candidate 0.20 above a baseline at 0: P(decide) after 2 more rounds %.3f, want about 1", p)
	}
}

// BenchmarkMoreRoundsAdvice is the advice's worst case for one statistic:
// rounds centred on the tolerance, which no number of rounds up to the
// 200 the advice weighs is likely to decide, so it tries every one.
func BenchmarkMoreRoundsAdvice(b *testing.B) {
	for _, kind := range []string{"paired", "welch"} {
		est := pairedT([]float64{0.04, 0.06, 0.03, 0.07}, 1-0.05/8)
		if kind == "welch" {
			est = welchT([]float64{0, 0.01, -0.01, 0.02}, []float64{0.04, 0.06, 0.03, 0.07}, 1-0.05/8)
		}
		b.Run(kind, func(b *testing.B) {
			for b.Loop() {
				if _, ok := roundsToDecide(est, 0.05, 4, maxAdvisedRounds); ok {
					b.Fatal("rounds centred on the tolerance were advised a number")
				}
			}
		})
	}
}
