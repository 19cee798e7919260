package compare

import (
	"encoding/json"
	"fmt"
	"math"
	"os"

	"gonum.org/v1/gonum/stat"
	"gonum.org/v1/gonum/stat/distuv"

	"github.com/servebench/servebench/servebench/report"
)

// NoiseSchema names the version of the NoiseFloor's JSON form.
const NoiseSchema = "servebench.noise/v1"

// NoiseFile is the file servebench noise writes in its output directory.
const NoiseFile = "noise.json"

// decidePowerTarget is the probability with which MinTolerance is decided.
const decidePowerTarget = 0.8

// NoiseFloor is what identical rounds against one engine measured: per
// statistic, the run-to-run noise, its upper bound, and the smallest
// tolerance that rounds until decided would likely decide at this run size.
type NoiseFloor struct {
	// Schema is NoiseSchema.
	Schema string `json:"schema"`
	// Rounds is the number of identical rounds measured.
	Rounds int `json:"rounds"`
	// RequestsPerRound is the mean number of offered requests a round.
	RequestsPerRound int `json:"requests_per_round"`
	// MaxRounds and Confidence are the rounds-until-decided budget and the
	// family-wise confidence MinTolerance assumes; Deciding is the number
	// of deciding statistics it assumes the family holds.
	MaxRounds  int     `json:"max_rounds"`
	Confidence float64 `json:"confidence"`
	Deciding   int     `json:"deciding"`
	// Statistics holds one entry per statistic.
	Statistics []StatisticNoise `json:"statistics"`
}

// StatisticNoise is one statistic's run-to-run noise. Noise, NoiseUpper
// and MinTolerance are on the comparison's Change scale: a fraction of the
// value for a relative statistic, points (as a fraction) for attainment
// and the error rate.
type StatisticNoise struct {
	Name string `json:"name"`
	Kind Kind   `json:"kind"`
	// Values is the statistic in each round.
	Values []float64 `json:"values"`
	// Noise is the standard deviation of one round's statistic (for a
	// proportion, never below the binomial standard deviation of a round).
	Noise float64 `json:"noise"`
	// NoiseUpper is the one-sided upper confidence bound on Noise at
	// Confidence, from the χ² distribution on rounds − 1 degrees of
	// freedom (for a proportion, never below the binomial standard
	// deviation, which is known).
	NoiseUpper float64 `json:"noise_upper"`
	// MinTolerance is the smallest tolerance that rounds until decided
	// decides within MaxRounds with probability 0.8 at this run size, for
	// a candidate as noisy as Noise measured and no worse than the
	// baseline.
	MinTolerance float64 `json:"min_tolerance"`
}

// NoiseOptions declares what MeasureNoise assumes of the gate.
type NoiseOptions struct {
	// Tolerances names the statistics; nil means DefaultTolerances.
	Tolerances []Tolerance
	// MaxRounds is the gate's budget (default 20); Confidence its
	// family-wise confidence (default 0.95); Deciding the size of its
	// deciding family (default len(DefaultDecide())).
	MaxRounds, Deciding int
	Confidence          float64
	// fixed is a fixed design of MaxRounds rounds: one look spends all
	// of the error.
	fixed bool
}

// MeasureNoise measures the noise floor of identical rounds of one
// engine; it needs at least two rounds.
func MeasureNoise(rounds []*report.Report, opts NoiseOptions) (*NoiseFloor, error) {
	if len(rounds) < 2 {
		return nil, fmt.Errorf("noise: %d rounds; the run-to-run noise needs at least 2", len(rounds))
	}
	opts = opts.withDefaults()
	var endpoint = rounds[0].Endpoint
	tols := opts.Tolerances
	if tols == nil {
		tols = definedTolerances(DefaultTolerances(), endpoint)
	}
	nf := &NoiseFloor{Schema: NoiseSchema, Rounds: len(rounds), RequestsPerRound: offered(rounds) / len(rounds),
		MaxRounds: opts.MaxRounds, Confidence: opts.Confidence, Deciding: opts.Deciding}
	for _, t := range tols {
		s, err := statisticFor(t.Name)
		if err != nil {
			return nil, fmt.Errorf("noise: %w", err)
		}
		v, err := values(s, rounds)
		if err != nil {
			return nil, fmt.Errorf("noise: %w", err)
		}
		if !finite(v...) || (s.kind == KindRelative && !positive(v)) {
			continue // a statistic some round cannot give (every request failed, or none beyond a p99)
		}
		sd := stat.StdDev(scaled(s, v), nil)
		upper := sd * math.Sqrt(float64(len(v)-1)/distuv.ChiSquared{K: float64(len(v) - 1)}.Quantile(1-opts.Confidence))
		if s.base == "attainment" || s.base == "error_rate" {
			// The binomial noise of a round is known, not estimated: a
			// floor under the estimate and under its bound alike.
			floor := binomialRoundSD(v, nf.RequestsPerRound)
			sd, upper = math.Max(sd, floor), math.Max(upper, floor)
		}
		nf.Statistics = append(nf.Statistics, StatisticNoise{
			Name: s.name, Kind: s.kind, Values: v, Noise: toChange(s, sd), NoiseUpper: toChange(s, upper),
			MinTolerance: roundUpTolerance(toChange(s, minTolerance(sd, opts))),
		})
	}
	return nf, nil
}

// withDefaults fills the defaults in.
func (o NoiseOptions) withDefaults() NoiseOptions {
	if o.MaxRounds == 0 {
		o.MaxRounds = 20
	}
	if o.Confidence == 0 {
		o.Confidence = 0.95
	}
	if o.Deciding == 0 {
		o.Deciding = len(DefaultDecide())
	}
	return o
}

// minTolerance is, on the working scale, the smallest tolerance that the
// last look at MaxRounds rounds decides with probability 0.8 when one
// round's statistic has standard deviation sd on each side and the sides
// are alike: the difference of a round has standard deviation √2·sd, its
// mean over M rounds √2·sd/√M, and the look decides no_regression when
// the mean plus t·se lies within the tolerance, t being the quantile at
// the last look's share of the error (the upper end, which calls
// no_regression, is not corrected over the deciding statistics: see
// Comparison.UpperBoundLevel). Earlier looks only add chances to
// decide, so this is an upper bound on the smallest such tolerance. It
// is never below sd, which the gate refuses.
func minTolerance(sd float64, o NoiseOptions) float64 {
	m := float64(o.MaxRounds)
	alpha := 1 - o.Confidence
	last := SpentAlpha(alpha, 1) - SpentAlpha(alpha, (m-2)/m)
	if o.fixed {
		last = alpha
	}
	t := tQuantile(1-last, m-1)
	se := math.Sqrt2 * sd / math.Sqrt(m)
	return math.Max((t+normalQuantile(decidePowerTarget))*se, sd)
}

// binomialRoundSD is the binomial standard deviation of one round's
// proportion of n requests, at the mean of values, kept off 0 and 1 as
// (x + ½)/(n + 1).
func binomialRoundSD(values []float64, n int) float64 {
	p := (mean(values)*float64(n) + 0.5) / float64(n+1)
	return math.Sqrt(p * (1 - p) / float64(n))
}

// roundUpTolerance rounds a tolerance up to a tenth of a percent (or
// point).
func roundUpTolerance(t float64) float64 { return math.Ceil(t*1000-1e-9) / 1000 }

// positive reports whether every value is above 0.
func positive(xs []float64) bool {
	for _, x := range xs {
		if !(x > 0) {
			return false
		}
	}
	return true
}

// LoadNoise reads a noise.json.
func LoadNoise(path string) (*NoiseFloor, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var nf NoiseFloor
	if err := json.Unmarshal(b, &nf); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if nf.Schema != NoiseSchema {
		return nil, fmt.Errorf("%s: schema %q, want %q", path, nf.Schema, NoiseSchema)
	}
	return &nf, nil
}

// Lookup is the named statistic's noise, if measured.
func (nf *NoiseFloor) Lookup(name string) (StatisticNoise, bool) {
	if nf == nil {
		return StatisticNoise{}, false
	}
	for _, s := range nf.Statistics {
		if s.Name == name {
			return s, true
		}
	}
	return StatisticNoise{}, false
}
