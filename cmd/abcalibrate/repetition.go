package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/servebench/servebench/fixtures/simengine"
	"github.com/servebench/servebench/servebench"
	"github.com/servebench/servebench/servebench/ab"
	"github.com/servebench/servebench/servebench/compare"
	"github.com/servebench/servebench/servebench/openai"
	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/servebench/schedule"
)

// run runs an experiment's repetitions.
func (e experiment) run(ctx context.Context, s settings, w *schedule.Workload, out io.Writer, log io.Writer) (tally, error) {
	t := newTally()
	for rep := s.first; rep < s.first+s.reps; rep++ {
		began := time.Now()
		c, refused, err := repetition(ctx, s, w, e, rep, s.rounds)
		took := time.Since(began)
		if err != nil {
			return t, fmt.Errorf("repetition %d: %w", rep, err)
		}
		if c == nil {
			t.refused++
			fmt.Fprintf(log, "%s #%d: refused: %s\n", e.name, rep, refused)
			continue
		}
		hit := e.hit != nil && e.hit(c)
		t.add(c, hit)
		t.addCost(c, took)
		if e.moreRounds {
			if err := e.checkAdvice(ctx, s, w, rep, c, &t, log); err != nil {
				return t, fmt.Errorf("repetition %d: %w", rep, err)
			}
		}
		line, _ := json.Marshal(map[string]any{"experiment": e.name, "repetition": rep, "comparison": c})
		fmt.Fprintf(out, "%s\n", line)
		fmt.Fprintf(log, "%s #%d: %s (counted: %v, valid load: %v, %s, %v)\n", e.name, rep, c.Verdict, hit, c.Valid, stoppingText(c), took.Round(time.Second))
	}
	return t, nil
}

// checkAdvice reruns the repetition with the extra rounds advised for its
// first inconclusive statistic (up to -max-extra-rounds) and counts
// whether that statistic is then decided.
func (e experiment) checkAdvice(ctx context.Context, s settings, w *schedule.Workload, rep int, c *compare.Comparison, t *tally, log io.Writer) error {
	for _, m := range c.Comparisons {
		extra, ok := advisedRounds(m.Decide)
		if m.Verdict != compare.Inconclusive || !ok || extra > s.maxExtra {
			continue
		}
		more, refused, err := repetition(ctx, s, w, e, rep, s.rounds+extra)
		if err != nil {
			return err
		}
		if more == nil {
			fmt.Fprintf(log, "%s #%d: with %d more rounds, refused: %s\n", e.name, rep, extra, refused)
			return nil
		}
		after := compare.Verdict("absent")
		for _, m2 := range more.Comparisons {
			if m2.Name == m.Name {
				after = m2.Verdict
			}
		}
		t.addAdvice(extra, after)
		fmt.Fprintf(log, "%s #%d: %s (estimate %+.4f, interval [%+.4f, %+.4f], noise %s) advised %d more rounds; with them: %s (valid load: %v)\n",
			e.name, rep, m.Name, m.Change, m.CILow, m.CIHigh, noiseText(m.Noise), extra, after, more.Valid)
		return nil
	}
	return nil
}

// stoppingText says how a repetition stopped.
func stoppingText(c *compare.Comparison) string {
	if c.Stopping == nil {
		return "no stopping record"
	}
	return c.Stopping.Describe()
}

// noiseText prints a measured run-to-run noise, or "unmeasured".
func noiseText(n *float64) string {
	if n == nil {
		return "unmeasured"
	}
	return fmt.Sprintf("%.4f", *n)
}

// advisedRounds reads N from "about N more round(s) would decide it …".
func advisedRounds(decide string) (int, bool) {
	rest, ok := strings.CutPrefix(decide, "about ")
	if !ok {
		return 0, false
	}
	n, _, _ := strings.Cut(rest, " ")
	k, err := strconv.Atoi(n)
	return k, err == nil && strings.Contains(decide, "more round")
}

// repetition runs one A/B qualification of the given rounds; every run
// gets a fresh engine with its own seed, so the two sides of an A/A
// comparison are identical configurations with different seeds. A
// comparison refused as bad input returns nil and why.
func repetition(ctx context.Context, s settings, w *schedule.Workload, e experiment, rep, rounds int) (*compare.Comparison, string, error) {
	dir, err := os.MkdirTemp("", "abcalibrate-")
	if err != nil {
		return nil, "", err
	}
	defer os.RemoveAll(dir)
	arrival, err := schedule.NewArrival(schedule.ArrivalSpec{Process: "poisson", RateRPS: s.rate, Seed: int64(rep) * 1000})
	if err != nil {
		return nil, "", err
	}
	side := servebench.RunConfig{
		Workload: w, Arrival: arrival, Count: s.count, Warmup: s.warmup, LagTolerance: s.lagTolerance,
		Client: &openai.Client{Endpoint: record.EndpointCompletions, Model: "simengine-tiny", TotalTimeout: time.Minute},
	}
	starts := 0
	cfg := ab.Config{
		Baseline: side, Candidate: side, Rounds: rounds, MaxRounds: s.maxRounds, OutputDir: dir,
		Options: compare.Options{Confidence: s.confidence, Tolerances: s.tolerances, Decide: s.decide},
		StartEngine: func(ctx context.Context, sd compare.Side, rc *servebench.RunConfig) (func(), error) {
			starts++
			ec := simengine.DefaultConfig()
			step := float64(s.baseStep) * runNoiseFactor(s.runNoise, rep, starts)
			if sd == compare.Candidate {
				step *= e.slowdown
				ec.ErrorRate = e.errorRate
			}
			ec.TimeScale, ec.StepBase, ec.Seed = s.timeScale, time.Duration(step), uint64(rep*1000+starts)
			srv, err := simengine.Start(ctx, ec)
			if err != nil {
				return nil, err
			}
			client := *rc.Client
			client.BaseURL = srv.BaseURL()
			rc.Client = &client
			return func() { srv.Close() }, nil
		},
	}
	res, err := ab.Run(ctx, cfg)
	if err != nil && res != nil && len(res.Baseline) == len(res.Candidate) && len(res.Order) > 0 && !errors.Is(err, ab.ErrInterrupted) {
		return nil, err.Error(), nil // every run finished: the comparison itself was refused
	}
	if err != nil {
		return nil, "", err
	}
	return res.Comparison, "", nil
}
