package compare

import (
	"fmt"
	"math"
	"strings"

	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/servebench/report"
)

// The priors the plan check takes for a statistic noise.json does not
// give: a binomial round at attainment 0.995 (error rate 0.005), and for a
// latency percentile the run-to-run noise of latencyPriors at
// priorRequestsAround requests a round, falling as 1/√requests.
const (
	priorProportion     = 0.995
	priorRequestsAround = 150
)

// Plan is the check of a planned A/B qualification against its
// tolerances, before any load: whether each deciding statistic can be
// decided within the budget, and the run size that can.
type Plan struct {
	// RequestsPerRound and MaxRounds are the planned run size and budget;
	// Fixed is true for a fixed number of rounds.
	RequestsPerRound, MaxRounds int
	Fixed                       bool
	// Statistics holds one check per deciding statistic.
	Statistics []PlanStatistic
}

// PlanStatistic is one deciding statistic's check. Noise, MinTolerance and
// Tolerance are on the Change scale.
type PlanStatistic struct {
	Name      string
	Kind      Kind
	Tolerance float64
	// Noise is the run-to-run noise assumed, from NoiseSource.
	Noise       float64
	NoiseSource string
	// MinTolerance is the smallest tolerance the plan decides with
	// probability 0.8 for a candidate no worse than the baseline.
	MinTolerance float64
	// CanDecide is whether the tolerance is at least MinTolerance and, for
	// a percentile, each side will have enough observations beyond it.
	CanDecide bool
	// RequestsNeeded is the run size a round that can decide, when this
	// one cannot (0 when none would).
	RequestsNeeded int
	// Advice says what would decide it, in requests a round.
	Advice string
}

// CanDecide reports whether every deciding statistic can be decided.
func (p *Plan) CanDecide() bool {
	for _, s := range p.Statistics {
		if !s.CanDecide {
			return false
		}
	}
	return true
}

// CheckPlan checks a plan of requests a round and at most maxRounds
// rounds (fixed: exactly maxRounds) against opts' deciding tolerances,
// taking the noise from noise where it measured the statistic, else from
// the stated priors. It errors on options no comparison would take.
func CheckPlan(opts Options, endpoint record.Endpoint, requests, maxRounds int, fixed bool, noise *NoiseFloor) (*Plan, error) {
	tols, err := checkOptions(&opts, endpoint)
	if err != nil {
		return nil, err
	}
	deciding, err := decidingSet(opts, tols)
	if err != nil {
		return nil, err
	}
	if requests < 1 || maxRounds < 2 {
		return nil, fmt.Errorf("plan: %d requests a round and %d rounds cannot be compared; want at least 1 request and 2 rounds", requests, maxRounds)
	}
	no := NoiseOptions{MaxRounds: maxRounds, Confidence: opts.Confidence, Deciding: len(deciding), fixed: fixed}
	plan := &Plan{RequestsPerRound: requests, MaxRounds: maxRounds, Fixed: fixed}
	for _, t := range tols {
		if !deciding[t.Name] {
			continue
		}
		s, err := statisticFor(t.Name)
		if err != nil {
			return nil, err
		}
		plan.Statistics = append(plan.Statistics, checkOne(s, t.Value, requests, no, noise))
	}
	return plan, nil
}

// checkOne checks one deciding statistic.
func checkOne(s statistic, tol float64, n int, no NoiseOptions, noise *NoiseFloor) PlanStatistic {
	ps := PlanStatistic{Name: s.name, Kind: s.kind, Tolerance: tol}
	sd := planNoise(s, n, noise, &ps)
	ps.Noise = toChange(s, sd)
	ps.MinTolerance = roundUpTolerance(toChange(s, minTolerance(sd, no)))
	threshold := tol
	if s.kind == KindRelative {
		threshold = math.Log1p(tol)
	}
	ps.CanDecide = threshold >= minTolerance(sd, no)
	if !ps.CanDecide {
		// The noise falls as 1/√requests: the run size whose smallest
		// tolerance is this one.
		f := minTolerance(sd, no) / threshold
		ps.RequestsNeeded = int(math.Ceil(float64(n) * f * f))
		ps.Advice = fmt.Sprintf("a %s %s tolerance needs about %d requests a round (this plan: %d)", ps.formatTolerance(), s.name, ps.RequestsNeeded, n)
	}
	if s.metric != "" && s.p < 100 {
		first := FirstLookRoundsForPlan
		if no.fixed {
			first = no.MaxRounds
		}
		if need := neededFor(s.p); !enoughBeyond(n*first, s.p) {
			perRound := int(math.Ceil(float64(need) / float64(first)))
			ps.CanDecide = false
			ps.RequestsNeeded = max(ps.RequestsNeeded, perRound)
			ps.Advice = fmt.Sprintf("p%g needs at least %d observations a side for %d to lie beyond it: about %d requests a round at %d rounds (this plan: %d)",
				s.p, need, report.MinObservationsBeyond, perRound, first, n)
		}
	}
	return ps
}

// FirstLookRoundsForPlan is the rounds of the first look of rounds until
// decided, at which a percentile must already be judgeable.
const FirstLookRoundsForPlan = 4

// planNoise is the working-scale noise of one round of n requests: the
// measured noise, scaled to n, or the prior; it records the source.
func planNoise(s statistic, n int, noise *NoiseFloor, ps *PlanStatistic) float64 {
	if m, ok := noise.Lookup(s.name); ok {
		sd := m.Noise
		if s.kind == KindRelative {
			sd = math.Log1p(sd)
		}
		ps.NoiseSource = fmt.Sprintf("noise.json (measured over %d rounds of %d requests", noise.Rounds, noise.RequestsPerRound)
		if noise.RequestsPerRound > 0 && noise.RequestsPerRound != n {
			sd *= math.Sqrt(float64(noise.RequestsPerRound) / float64(n))
			ps.NoiseSource += fmt.Sprintf(", scaled to %d as 1/√requests", n)
		}
		ps.NoiseSource += ")"
		return sd
	}
	switch s.base {
	case "attainment", "error_rate":
		ps.NoiseSource = fmt.Sprintf("binomial at attainment %g (error rate %g), %d requests", priorProportion, 1-priorProportion, n)
		return math.Sqrt(priorProportion * (1 - priorProportion) / float64(n))
	}
	prior := latencyPrior(s)
	ps.NoiseSource = fmt.Sprintf("prior: %g %% a round at %d requests (measured in A/A calibration), as 1/√requests", 100*prior, priorRequestsAround)
	return math.Log1p(prior) * math.Sqrt(float64(priorRequestsAround)/float64(n))
}

// formatTolerance prints the tolerance as its comparison does.
func (ps PlanStatistic) formatTolerance() string {
	return MetricComparison{Kind: ps.Kind, Tolerance: ps.Tolerance}.formatTolerance()
}

// Describe is the plan check as text, one line per deciding statistic.
func (p *Plan) Describe() string {
	var b strings.Builder
	design := fmt.Sprintf("rounds until decided, at most %d", p.MaxRounds)
	if p.Fixed {
		design = fmt.Sprintf("%d fixed rounds", p.MaxRounds)
	}
	verdict := "can decide every deciding statistic"
	if !p.CanDecide() {
		verdict = "CANNOT decide every deciding statistic"
	}
	fmt.Fprintf(&b, "plan: %d requests a round, %s: %s (80 %% probability for a candidate no worse than the baseline)\n", p.RequestsPerRound, design, verdict)
	for _, s := range p.Statistics {
		mc := MetricComparison{Kind: s.Kind}
		state := "can decide"
		if !s.CanDecide {
			state = "cannot decide: " + s.Advice
		}
		fmt.Fprintf(&b, "  %s: tolerance %s, smallest decidable %s, noise %s a round from %s: %s\n",
			s.Name, s.formatTolerance(), strings.TrimPrefix(mc.formatChange(s.MinTolerance), "+"), strings.TrimPrefix(mc.formatChange(s.Noise), "+"), s.NoiseSource, state)
	}
	return b.String()
}
