package main

import (
	"fmt"
	"io"
	"math"
	"sort"
	"time"

	"github.com/servebench/servebench/servebench/compare"
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
