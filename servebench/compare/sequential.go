package compare

import (
	"fmt"
	"math"
)

// SequentialRule names the stopping rule of rounds run until decided, as
// Stopping.Rule records it: a group-sequential design with Lan and DeMets'
// alpha spending (Biometrika 70:659, 1983), spending function
// α·ln(1 + (e − 1)·t) of the Pocock type, t the rounds done over the
// planned maximum. Each look spends its increment of α on both
// boundaries: regression, split by Bonferroni over the deciding
// statistics, and no_regression, for each statistic alone (no_regression
// needs all of them: an intersection–union test); a statistic decided at
// a look keeps its verdict. By the union bound over looks the errors of
// the whole procedure stay within α = 1 − confidence, whatever the
// correlation between looks.
const SequentialRule = "group_sequential_lan_demets_pocock_spending"

// The reasons a sequential A/B qualification stopped, as Stopping.Reason
// records them.
const (
	StopDecided     = "decided"
	StopMaxRounds   = "max_rounds"
	StopMaxDuration = "max_duration"
	StopInterrupted = "interrupted"
)

// Look makes a comparison one look of a group-sequential procedure: its
// intervals are made at the level this look's share of the error spends.
type Look struct {
	// Number counts the looks from 1.
	Number int
	// PreviousRounds is how many rounds a side had at the previous look
	// (0 at the first).
	PreviousRounds int
	// MaxRounds is the planned maximum number of rounds a side.
	MaxRounds int
	// Decided holds the comparisons of deciding statistics decided at
	// earlier looks: they keep their verdicts.
	Decided []MetricComparison
}

// Stopping records how a sequential A/B qualification ended.
type Stopping struct {
	// Rule is SequentialRule, or "fixed" for a fixed number of rounds.
	Rule string `json:"rule"`
	// Looks is the number of looks taken.
	Looks int `json:"looks"`
	// Rounds counts the rounds each side ran.
	Rounds Rounds `json:"rounds"`
	// MaxRounds is the most rounds a side could have run.
	MaxRounds int `json:"max_rounds"`
	// Reason is decided, max_rounds, max_duration or interrupted.
	Reason string `json:"reason"`
}

// Describe is one line on how the qualification stopped.
func (s Stopping) Describe() string {
	return fmt.Sprintf("%s after %d %s (rounds: baseline %d, candidate %d, at most %d a side): %s",
		s.Rule, s.Looks, plural(s.Looks, "look", "looks"), s.Rounds.Baseline, s.Rounds.Candidate, s.MaxRounds, s.Reason)
}

// SpentAlpha is the share of alpha spent by information fraction t (the
// rounds done over the planned maximum): α·ln(1 + (e − 1)·t), t clipped
// to [0, 1], so that all of α is spent at the planned maximum.
func SpentAlpha(alpha, t float64) float64 {
	t = math.Min(math.Max(t, 0), 1)
	return alpha * math.Log(1+(math.E-1)*t)
}

// alphaAt is the error this look may spend, at rounds rounds a side.
func (l *Look) alphaAt(alpha float64, rounds int) float64 {
	m := float64(l.MaxRounds)
	return SpentAlpha(alpha, float64(rounds)/m) - SpentAlpha(alpha, float64(l.PreviousRounds)/m)
}

// decidedEarlier is the comparison of name decided at an earlier look.
func (l *Look) decidedEarlier(name string) (MetricComparison, bool) {
	if l == nil {
		return MetricComparison{}, false
	}
	for _, m := range l.Decided {
		if m.Name == name && (m.Verdict == Regression || m.Verdict == NoRegression) {
			return m, true
		}
	}
	return MetricComparison{}, false
}

// Undecided lists the deciding statistics that are neither regression nor
// no_regression.
func (c *Comparison) Undecided() []string {
	var out []string
	for _, m := range c.Comparisons {
		if m.Verdict != Regression && m.Verdict != NoRegression && m.Verdict != Informational {
			out = append(out, m.Name)
		}
	}
	return out
}

// Decided returns the deciding comparisons that are regression or
// no_regression, for the next look to keep.
func (c *Comparison) Decided() []MetricComparison {
	var out []MetricComparison
	for _, m := range c.Comparisons {
		if m.Verdict == Regression || m.Verdict == NoRegression {
			out = append(out, m)
		}
	}
	return out
}
