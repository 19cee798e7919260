package main

import (
	"fmt"
	"io"
	"math"
	"slices"
	"sort"
	"time"

	"github.com/servebench/servebench/servebench/compare"
	"github.com/servebench/servebench/servebench/stats"
)

// tally counts one experiment's repetitions: over all of them, and over
// those whose every run was valid load (the only ones servebench itself
// would accept as evidence; the others exit 2). Comparisons refused as
// bad input (a tolerance below the measured noise) are counted apart.
type tally struct {
	reps, valid, hits, validHits, refused int
	verdicts                              map[compare.Verdict]int
	// coverage counts, per statistic, the valid-load intervals that held
	// 0, those judged, and those marked insufficient_data.
	coverage map[string]*cover
	// advised and decided count the more-rounds advice checked; after
	// counts the verdicts the advised rounds gave, and extra sums the
	// rounds advised.
	advised, decided, extra int
	after                   map[compare.Verdict]int
	// rounds and walls are each valid repetition's rounds a side and
	// wall time to its verdict.
	rounds []float64
	walls  []float64
}

// addCost counts one repetition's rounds a side and wall time.
func (t *tally) addCost(c *compare.Comparison, took time.Duration) {
	t.rounds = append(t.rounds, float64(c.Rounds.Baseline))
	t.walls = append(t.walls, took.Seconds())
}

// medianAndP90 are the nearest-rank median and 90th percentile of xs.
func medianAndP90(xs []float64) (float64, float64) {
	s := slices.Sorted(slices.Values(xs))
	m, _ := stats.Percentile(s, 50, stats.NearestRank)
	p90, _ := stats.Percentile(s, 90, stats.NearestRank)
	return m, p90
}

// addAdvice counts one checked advice: extra rounds were advised for a
// statistic, and with them its verdict was after.
func (t *tally) addAdvice(extra int, after compare.Verdict) {
	t.advised++
	t.extra += extra
	t.after[after]++
	if after == compare.Regression || after == compare.NoRegression {
		t.decided++
	}
}

// cover is one statistic's coverage count.
type cover struct{ held, judged, insufficient int }

func newTally() tally {
	return tally{verdicts: map[compare.Verdict]int{}, coverage: map[string]*cover{}, after: map[compare.Verdict]int{}}
}

// add counts one repetition's comparison.
func (t *tally) add(c *compare.Comparison, hit bool) {
	t.reps++
	t.verdicts[c.Verdict]++
	if hit {
		t.hits++
	}
	if !c.Valid {
		return
	}
	t.valid++
	if hit {
		t.validHits++
	}
	for _, m := range c.Comparisons {
		k := t.coverage[m.Name]
		if k == nil {
			k = &cover{}
			t.coverage[m.Name] = k
		}
		switch {
		case m.Verdict == compare.InsufficientData || m.Leaning == compare.InsufficientData:
			k.insufficient++
		case !math.IsNaN(m.CILow) && !math.IsNaN(m.CIHigh):
			k.judged++
			if m.CILow <= 0 && 0 <= m.CIHigh {
				k.held++
			}
		}
	}
}

// rate prints hits of n with its 95 % Wilson interval.
func rate(hits, n int) string {
	if n == 0 {
		return "no repetitions"
	}
	lo, hi := compare.WilsonInterval(hits, n, 0.95)
	return fmt.Sprintf("%d of %d = %.3f, 95%% Wilson interval [%.3f, %.3f]", hits, n, float64(hits)/float64(n), lo, hi)
}

func (t tally) print(w io.Writer, e experiment, took time.Duration) {
	fmt.Fprintf(w, "%s: %s (want %s)\n", e.name, e.question, e.want)
	if e.moreRounds {
		fmt.Fprintf(w, "  advised statistics decided after the advised rounds: %s\n", rate(t.decided, t.advised))
		if t.advised > 0 {
			fmt.Fprintf(w, "  verdicts after the advised rounds %v; mean rounds advised %.1f\n", t.after, float64(t.extra)/float64(t.advised))
		}
	} else {
		fmt.Fprintf(w, "  all repetitions: %s\n  valid-load repetitions only: %s\n", rate(t.hits, t.reps), rate(t.validHits, t.valid))
	}
	fmt.Fprintf(w, "  verdicts %v; refused as bad input %d; took %v\n", t.verdicts, t.refused, took.Round(time.Second))
	fmt.Fprintf(w, "  no_regression overall: %s\n", rate(t.verdicts[compare.NoRegression], t.reps))
	if len(t.rounds) > 0 {
		rm, r90 := medianAndP90(t.rounds)
		wm, w90 := medianAndP90(t.walls)
		fmt.Fprintf(w, "  cost: rounds a side median %g, p90 %g; wall time to a verdict median %.0f s, p90 %.0f s\n", rm, r90, wm, w90)
	}
	if e.slowdown != 1 || e.errorRate != 0 {
		return
	}
	names := make([]string, 0, len(t.coverage))
	for n := range t.coverage {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		k := t.coverage[n]
		fmt.Fprintf(w, "  coverage of %s (interval holds 0): %s; insufficient_data %d\n", n, rate(k.held, k.judged), k.insufficient)
	}
}
