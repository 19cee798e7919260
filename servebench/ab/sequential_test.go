package ab_test

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/servebench/servebench/fixtures/simengine"
	"github.com/servebench/servebench/servebench"
	"github.com/servebench/servebench/servebench/ab"
	"github.com/servebench/servebench/servebench/compare"
)

// autoConfig is abConfig with rounds until decided, at most maxRounds, both
// sides against one simulated engine.
func autoConfig(t *testing.T, maxRounds int, tolerance float64) ab.Config {
	t.Helper()
	srv := simengine.StartTest(t, func(c *simengine.Config) { c.TimeScale = 0.05 })
	cfg := abConfig(t, ab.RoundsAuto)
	cfg.MaxRounds = maxRounds
	cfg.Options.Tolerances = []compare.Tolerance{{Name: "attainment", Value: tolerance}}
	for _, side := range []*servebench.RunConfig{&cfg.Baseline, &cfg.Candidate} {
		c := *side.Client
		c.BaseURL = srv.BaseURL()
		side.Client = &c
	}
	return cfg
}

// stoppingOnDisk reads compare.json's stopping record.
func stoppingOnDisk(t *testing.T, dir string) (compare.Verdict, compare.Stopping) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, compare.ComparisonFile))
	if err != nil {
		t.Fatal(err)
	}
	var c struct {
		Verdict  compare.Verdict  `json:"verdict"`
		Stopping compare.Stopping `json:"stopping"`
	}
	if err := json.Unmarshal(b, &c); err != nil {
		t.Fatal(err)
	}
	return c.Verdict, c.Stopping
}

// Every request of both sides qualifies: with 3 requests a run, 12 a side
// over the first 4 rounds, attainment's interval at the first look
// (half-width about 0.18) lies within a 50-point tolerance, so the
// qualification stops there; with a 1-point tolerance it never decides,
// and runs the looks at 4 and 6 rounds to its maximum of 6.
func TestRoundsAutoStopsWhenDecidedOrAtMaxRounds(t *testing.T) {
	for _, tc := range []struct {
		tolerance     float64
		looks, rounds int
		reason        string
		verdict       compare.Verdict
	}{
		{0.5, 1, 4, compare.StopDecided, compare.NoRegression},
		{0.01, 2, 6, compare.StopMaxRounds, compare.Inconclusive},
	} {
		cfg := autoConfig(t, 6, tc.tolerance)
		var looks []int
		cfg.AfterLook = func(look int, c *compare.Comparison, _ []string) { looks = append(looks, c.Rounds.Baseline) }
		res, err := ab.Run(context.Background(), cfg)
		if err != nil {
			t.Fatalf("tolerance %v: %v", tc.tolerance, err)
		}
		want := compare.Stopping{Rule: compare.SequentialRule, Looks: tc.looks, Rounds: compare.Rounds{Baseline: tc.rounds, Candidate: tc.rounds}, MaxRounds: 6, Reason: tc.reason}
		verdict, st := stoppingOnDisk(t, cfg.OutputDir)
		if st != want || verdict != tc.verdict || *res.Stopping != want || len(res.Order) != 2*tc.rounds {
			t.Errorf("tolerance %v: %s, stopping %+v, %d runs; want %s, %+v, %d runs", tc.tolerance, verdict, st, len(res.Order), tc.verdict, want, 2*tc.rounds)
		}
		if len(looks) != tc.looks || looks[0] != 4 {
			t.Errorf("tolerance %v: looks after rounds %v", tc.tolerance, looks)
		}
		text, _ := os.ReadFile(filepath.Join(cfg.OutputDir, compare.ComparisonTextFile))
		if !strings.Contains(string(text), "stopping: "+compare.SequentialRule) {
			t.Errorf("compare.txt names no stopping rule:\n%s", text)
		}
	}
}

// An interruption after the first look keeps every finished run and
// writes the first look's comparison, from its balanced four rounds, with
// the stopping reason interrupted; no verdict comes from the unbalanced
// fifth round.
func TestRoundsAutoInterruptedKeepsTheLastLook(t *testing.T) {
	cfg := autoConfig(t, 8, 0.01)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	cfg.BeforeRun = func(side compare.Side, round int, _ *servebench.RunConfig) (func(), error) {
		if round == 5 && side == compare.Candidate {
			cancel()
		}
		return nil, nil
	}
	res, err := ab.Run(ctx, cfg)
	if !errors.Is(err, ab.ErrInterrupted) {
		t.Fatalf("err = %v, want ErrInterrupted", err)
	}
	verdict, st := stoppingOnDisk(t, cfg.OutputDir)
	want := compare.Stopping{Rule: compare.SequentialRule, Looks: 1, Rounds: compare.Rounds{Baseline: 5, Candidate: 4}, MaxRounds: 8, Reason: compare.StopInterrupted}
	if st != want || verdict != compare.Inconclusive || res.Comparison.Rounds.Baseline != 4 {
		t.Errorf("%s, stopping %+v, compared rounds %+v; want inconclusive from 4 rounds, %+v", verdict, st, res.Comparison.Rounds, want)
	}
}

// Rounds until decided need at least the first look's four rounds.
func TestRoundsAutoRefusesMaxRoundsBelowFour(t *testing.T) {
	cfg := abConfig(t, ab.RoundsAuto)
	cfg.MaxRounds = 3
	if _, err := ab.Run(context.Background(), cfg); err == nil || !strings.Contains(err.Error(), "max rounds 3 is below the 4 rounds") {
		t.Errorf("err = %v", err)
	}
}

// A wall-time bound that the next block would pass stops the rounds at
// the look before it, with the reason max_duration.
func TestRoundsAutoStopsAtMaxDuration(t *testing.T) {
	cfg := autoConfig(t, 20, 0.01)
	cfg.MaxDuration = time.Nanosecond
	res, err := ab.Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	want := compare.Stopping{Rule: compare.SequentialRule, Looks: 1, Rounds: compare.Rounds{Baseline: 4, Candidate: 4}, MaxRounds: 20, Reason: compare.StopMaxDuration}
	if *res.Stopping != want || res.Comparison.Verdict != compare.Inconclusive {
		t.Errorf("stopping %+v, verdict %s; want %+v, inconclusive", *res.Stopping, res.Comparison.Verdict, want)
	}
}
