package main

import (
	"fmt"
	"io"
	"math"

	"github.com/servebench/servebench/servebench"
	"github.com/servebench/servebench/servebench/compare"
)

// checkPlan checks the plan against the tolerances before any load and
// prints the check: on stdout alone with --dry-run (done, exit 1 when the
// plan cannot decide), else on stderr, going on. done is also true on bad
// input (exit 1).
func (af *abFlags) checkPlan(rf *runFlags, base servebench.RunConfig, opts compare.Options, stdout, stderr io.Writer) (int, bool) {
	var noise *compare.NoiseFloor
	if af.noiseFile != "" {
		n, err := compare.LoadNoise(af.noiseFile)
		if err != nil {
			fmt.Fprintf(stderr, "servebench ab: --noise: %v\n", err)
			return 1, true
		}
		noise = n
	}
	requests := plannedRequests(rf)
	rounds, fixed := af.maxRounds, !af.rounds.auto()
	if fixed {
		rounds = af.rounds.n
	}
	if requests == 0 || rounds < 2 {
		if af.dryRun {
			fmt.Fprintln(stdout, "plan: the run size is not known before the run (a replay without --count), or one round gives no verdict: nothing to check")
			return 0, true
		}
		return 0, false
	}
	plan, err := compare.CheckPlan(opts, base.Client.Endpoint, requests, rounds, fixed, noise)
	if err != nil {
		fmt.Fprintf(stderr, "servebench ab: %v\n", err)
		return 1, true
	}
	if !af.dryRun {
		fmt.Fprint(stderr, plan.Describe())
		return 0, false
	}
	fmt.Fprint(stdout, plan.Describe())
	if !plan.CanDecide() {
		return 1, true
	}
	return 0, true
}

// plannedRequests is the number of requests a run offers: --count, else
// the rate times the duration; 0 when unknown.
func plannedRequests(rf *runFlags) int {
	if rf.count > 0 {
		return rf.count
	}
	if rf.duration > 0 && rf.rate > 0 {
		return int(math.Floor(rf.rate * rf.duration.Seconds()))
	}
	return 0
}

// sameServer says why both sides are one server (equal URLs), or "".
func sameServer(base, cand servebench.RunConfig) string {
	if base.Client == nil || cand.Client == nil || base.Client.BaseURL != cand.Client.BaseURL {
		return ""
	}
	return fmt.Sprintf("the baseline and the candidate are one server (%s): an A/B of one server measures only its noise", base.Client.BaseURL)
}
