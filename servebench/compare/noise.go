package compare

import (
	"fmt"
	"math"
	"strings"

	"gonum.org/v1/gonum/stat"
)

// checkNoise measures the run-to-run noise of a statistic, the standard
// deviation of one round's value pooled over both sides on the working
// scale, records it on mc, and refuses a named threshold (on the working
// scale) below it: such a tolerance cannot be told from noise. A default
// tolerance below the noise is not the user's choice, so it is not refused:
// the comparison goes on (its interval, wide with that noise, decides) and
// a note says which tolerance to name instead. With one round per side
// there is no noise to measure.
func (c *Comparison) checkNoise(s statistic, mc *MetricComparison, bv, cv []float64, threshold float64) error {
	if len(bv) < 2 || len(cv) < 2 {
		return nil
	}
	b, cc := scaled(s, bv), scaled(s, cv)
	vb, vc := stat.Variance(b, nil), stat.Variance(cc, nil)
	nb, nc := float64(len(b)), float64(len(cc))
	sd := math.Sqrt(((nb-1)*vb + (nc-1)*vc) / (nb + nc - 2))
	noise := toChange(s, sd)
	mc.Noise = &noise
	if threshold < sd && c.defaultTolerances {
		c.Notes = append(c.Notes, fmt.Sprintf("the default tolerance %s on %s is below the run-to-run noise measured in the rounds (standard deviation %s per round, pooled over both sides), so these rounds can seldom decide it: name a tolerance of at least %s with --tolerance, or make the rounds quieter",
			mc.formatTolerance(), s.name, strings.TrimPrefix(mc.formatChange(noise), "+"), strings.TrimPrefix(mc.formatChange(noise), "+")))
		return nil
	}
	if threshold < sd {
		return fmt.Errorf("tolerance %s on %s is below the run-to-run noise measured in the rounds (standard deviation %s per round, pooled over both sides): a change that small cannot be told from noise; raise the tolerance to at least %s or make the rounds quieter",
			mc.formatTolerance(), s.name, strings.TrimPrefix(mc.formatChange(noise), "+"), strings.TrimPrefix(mc.formatChange(noise), "+"))
	}
	return nil
}
