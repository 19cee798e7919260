package main

import (
	"fmt"
	"regexp"
	"sort"
	"strings"

	"github.com/servebench/servebench/servebench/compare"
)

// experiment is one calibration question.
type experiment struct {
	name string
	// slowdown multiplies the candidate's decode step; errorRate is the
	// share of the candidate's requests that fail with HTTP 500.
	slowdown, errorRate float64
	// question says what is counted.
	question string
	// hit says whether a repetition counts.
	hit func(c *compare.Comparison) bool
	// want states the target.
	want string
	// moreRounds checks the "more rounds" advice instead of counting hits.
	moreRounds bool
}

var experiments = map[string]experiment{
	"aa": {name: "false alarms and interval coverage (A/A)", slowdown: 1, question: "any regression",
		hit: verdictIs(compare.Regression), want: "at most 1 − confidence; each interval holding 0 at least its level"},
	"tpot10": {name: "power (decode step 10 % slower)", slowdown: 1.10, question: "a tpot regression (tpot_p50 or tpot_p99)",
		hit: regressed("tpot_"), want: "at least 0.80"},
	"attainment3": {name: "power (3 % of candidate requests fail: attainment 3 points lower)", slowdown: 1, errorRate: 0.03,
		question: "an attainment regression", hit: regressed("attainment"), want: "at least 0.80"},
	"errors2": {name: "power (error rate 2 points higher)", slowdown: 1, errorRate: 0.02,
		question: "an error_rate regression", hit: regressed("error_rate"), want: "at least 0.80"},
	"power": {name: "power (decode step 25 % slower)", slowdown: 1.25, question: "a tpot regression (tpot_p50 or tpot_p99)",
		hit: regressed("tpot_"), want: "at least 0.95"},
	"tolerance": {name: "2 % slowdown against a 5 % tolerance", slowdown: 1.02, question: "any regression",
		hit: verdictIs(compare.Regression), want: "at most 1 − confidence"},
	"morerounds": {name: "the more-rounds advice (decode step 5 % slower)", slowdown: 1.05, moreRounds: true,
		question: "an inconclusive statistic decided after the advised extra rounds", want: "at least 0.80 (the advice's stated probability)"},
}

// slowdownName is the part of an experiment's name that states its
// slowdown.
var slowdownName = regexp.MustCompile(`decode step [0-9.]+ % slower`)

// withSlowdown is e with the candidate's decode step f times the
// baseline's, when e slows it and f is set (above 0).
func (e experiment) withSlowdown(f float64) experiment {
	if f <= 0 || e.slowdown == 1 {
		return e
	}
	e.slowdown = f
	e.name = slowdownName.ReplaceAllString(e.name, fmt.Sprintf("decode step %.4g %% slower", 100*(f-1)))
	return e
}

// experimentNames lists the experiments for messages.
func experimentNames() string {
	var names []string
	for n := range experiments {
		names = append(names, n)
	}
	sort.Strings(names)
	return strings.Join(names, ", ")
}

// verdictIs counts a comparison whose overall verdict is v.
func verdictIs(v compare.Verdict) func(*compare.Comparison) bool {
	return func(c *compare.Comparison) bool { return c.Verdict == v }
}

// regressed counts a comparison where a statistic named with prefix
// regressed.
func regressed(prefix string) func(*compare.Comparison) bool {
	return func(c *compare.Comparison) bool {
		for _, m := range c.Regressed() {
			if strings.HasPrefix(m.Name, prefix) {
				return true
			}
		}
		return false
	}
}
