package matchers

import (
	"fmt"
	"math"

	"github.com/servebench/servebench/servebench/report"
)

// Unjudgeable is implemented by the matchers whose objective can lack the
// data to judge it: a percentile with too few observations beyond it, an
// engine metric the engine does not expose, GPU energy not measured. A
// contract reports such an objective `unjudged`, neither a pass nor a
// failure (package suites). Match itself is unchanged: in a plain Gomega
// assertion an objective without its data still fails or errors.
type Unjudgeable interface {
	// Unjudged reports whether actual lacks the data to judge the
	// objective, and why.
	Unjudged(actual any) (reason string, unjudged bool)
}

// MinObservationsBeyond is how many observations must lie above a
// percentile below 100 for a percentile objective to be judged
// (report.MinObservationsBeyond): the rule of compare's
// insufficient_data. With fewer, the nearest-rank percentile is one of the
// few largest values (p99 of 40 requests is the slowest), so a single slow
// request would decide it. The maximum (p100) is judged on any population
// that is not empty.
const MinObservationsBeyond = report.MinObservationsBeyond

// Unjudged reports an empty population, or a percentile below 100 with
// fewer than MinObservationsBeyond observations above it.
func (m percentileMatcher) Unjudged(actual any) (string, bool) {
	r, err := reportFrom("HaveLatencyPercentileBelow", actual)
	if err != nil || math.IsNaN(m.p) || m.p <= 0 || m.p > 100 {
		return "", false
	}
	_, n, population, err := r.Percentile(m.metric, m.p)
	switch {
	case err != nil:
		return fmt.Sprintf("%s %s has no value: %v", m.pLabel(), metricLabel(m.metric), err), true
	case n == 0:
		return fmt.Sprintf("%s %s has no value: its population (%s) is empty", m.pLabel(), metricLabel(m.metric), population), true
	case m.p < 100 && report.ObservationsBeyond(n, m.p) < MinObservationsBeyond:
		return fmt.Sprintf("%s %s needs at least %d observations for %d to lie beyond it, and its population has %d (%s)",
			m.pLabel(), metricLabel(m.metric), report.ObservationsNeeded(m.p), MinObservationsBeyond, n, population), true
	}
	return "", false
}

// Unjudged reports a run in which no prefix-cache hit rate was measured:
// no request reported cached_tokens and no engine counter gave a rate.
func (m prefixCacheMatcher) Unjudged(actual any) (string, bool) {
	r, err := reportFrom("HavePrefixCacheHitRateAtLeast", actual)
	if err != nil || r.Offered == 0 {
		return "", false
	}
	if pc := r.PrefixCache; pc != nil && (pc.HitRate != nil || pc.EngineHitRate != nil) {
		return "", false
	}
	return "the prefix-cache hit rate was not measured: no request reported cached_tokens and the engine exposes no prefix-cache counter", true
}

// Unjudged reports a run whose GPU energy was not measured.
func (m energyMatcher) Unjudged(actual any) (string, bool) {
	r, err := reportFrom(m.who(), actual)
	if err != nil {
		return "", false
	}
	switch g := r.GPUTelemetry; {
	case g == nil:
		return "no GPU telemetry was sampled", true
	case !g.Available():
		return "GPU telemetry " + g.Status, true
	case g.EnergyJ == nil:
		return "the GPUs' energy is unknown (" + gpuLine(g) + ")", true
	}
	return "", false
}

// Unjudged asks the applied matcher about the selected value's report.
func (m breakdownMatcher) Unjudged(actual any) (string, bool) {
	u, ok := m.inner.(Unjudgeable)
	if !ok {
		return "", false
	}
	view, err := breakdownView(actual, m.dimension, m.value, false)
	if err != nil {
		return "", false
	}
	reason, unjudged := u.Unjudged(view)
	return m.prefix() + reason, unjudged
}
