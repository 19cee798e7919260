package matchers

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/servebench/servebench/servebench/report"

	"github.com/onsi/gomega/types"
)

// HaveEnergyPerOutputTokenBelow succeeds when the GPUs spent less than
// joules per output token over the measurement: the energy of every
// sampled GPU (its total-energy counter where it has one, otherwise
// integrated power) divided by the output tokens of the cohort's
// successful requests. The run needs a GPU sampler (RunConfig.GPUSampler,
// package servebench/telemetry; the CLI samples by default).
//
//	Expect(run).To(matchers.HaveEnergyPerOutputTokenBelow(0.5))
//
// A negative or NaN bound, a report without GPU telemetry, telemetry that
// was unavailable and an energy that is unknown are errors. Energy spent on
// no output token at all fails.
func HaveEnergyPerOutputTokenBelow(joules float64) types.GomegaMatcher {
	return energyMatcher{limit: joules, perToken: true}
}

// HaveEnergyPerQualifiedRequestBelow succeeds when the GPUs spent less than
// joules per qualified request over the measurement: the energy of
// goodput. A request that failed, timed out or missed its SLO adds energy
// and no qualified request, so the figure rises as attainment falls.
//
//	Expect(run).To(matchers.HaveEnergyPerQualifiedRequestBelow(60))
//
// The errors are those of HaveEnergyPerOutputTokenBelow. Energy spent with
// no qualified request fails.
func HaveEnergyPerQualifiedRequestBelow(joules float64) types.GomegaMatcher {
	return energyMatcher{limit: joules}
}

// energyMatcher holds only its expectation; see
// HaveEnergyPerOutputTokenBelow and HaveEnergyPerQualifiedRequestBelow.
type energyMatcher struct {
	limit    float64
	perToken bool
}

// energyVerdict is the matcher's judgment of one report.
type energyVerdict struct {
	report *report.Report
	gpu    *report.GPUTelemetry
	value  *float64 // nil: no unit of work to divide by
	pass   bool
}

// who names the matcher in error messages.
func (m energyMatcher) who() string {
	if m.perToken {
		return "HaveEnergyPerOutputTokenBelow"
	}
	return "HaveEnergyPerQualifiedRequestBelow"
}

// unit names what the energy is divided by.
func (m energyMatcher) unit() string {
	if m.perToken {
		return "output token"
	}
	return "qualified request"
}

// evaluate judges actual; it keeps nothing, so every method may call it.
func (m energyMatcher) evaluate(actual any) (energyVerdict, error) {
	who := m.who()
	if math.IsNaN(m.limit) || math.IsInf(m.limit, 0) || m.limit < 0 {
		return energyVerdict{}, fmt.Errorf("%s needs a finite, non-negative bound in joules, got %v", who, m.limit)
	}
	r, err := reportFrom(who, actual)
	if err != nil {
		return energyVerdict{}, err
	}
	g := r.GPUTelemetry
	switch {
	case g == nil:
		return energyVerdict{}, fmt.Errorf("%s cannot judge a report without GPU telemetry: sample the GPUs (RunConfig.GPUSampler from package servebench/telemetry, or the CLI's --gpu-sample-interval)", who)
	case !g.Available():
		return energyVerdict{}, fmt.Errorf("%s cannot judge this run: GPU telemetry %s", who, g.Status)
	case g.EnergyJ == nil:
		return energyVerdict{}, fmt.Errorf("%s cannot judge this run: the GPUs' energy is unknown (%s)", who, gpuLine(g))
	}
	v := energyVerdict{report: r, gpu: g, value: g.JoulesPerQualifiedRequest}
	if m.perToken {
		v.value = g.JoulesPerOutputToken
	}
	v.pass = v.value != nil && *v.value < m.limit
	return v, nil
}

// Match reports whether the energy per unit is below the bound.
func (m energyMatcher) Match(actual any) (bool, error) {
	v, err := m.evaluate(actual)
	return v.pass, err
}

// FailureMessage explains why the energy per unit reached the bound.
func (m energyMatcher) FailureMessage(actual any) string {
	v, err := m.evaluate(actual)
	if err != nil {
		return err.Error()
	}
	return m.headline(v, "to be below") + "\n" + gpuLine(v.gpu) + accountingLines(v.report)
}

// NegatedFailureMessage explains why the energy per unit stayed below the
// bound.
func (m energyMatcher) NegatedFailureMessage(actual any) string {
	v, err := m.evaluate(actual)
	if err != nil {
		return err.Error()
	}
	return m.headline(v, "not to be below") + "\n" + gpuLine(v.gpu)
}

// headline states the measured figure with its numerator and denominator.
func (m energyMatcher) headline(v energyVerdict, relation string) string {
	g := v.gpu
	units := fmt.Sprintf("%d qualified of %d offered requests", g.Qualified, v.report.Offered)
	if m.perToken {
		units = fmt.Sprintf("%d output tokens", g.OutputTokens)
		if g.SuccessesWithoutTokenCount > 0 {
			units += fmt.Sprintf(", %d successes without a token count left out", g.SuccessesWithoutTokenCount)
		}
	}
	figure := "undefined (no " + m.unit() + ")"
	if v.value != nil {
		figure = joules(*v.value)
	}
	return fmt.Sprintf("Expected energy per %s %s (%s over %s, %s) %s %s",
		m.unit(), figure, joules(*g.EnergyJ), units, strings.ReplaceAll(g.EnergyMethod, "_", " "), relation, joules(m.limit))
}

// gpuLine summarises each GPU's energy and mean power.
func gpuLine(g *report.GPUTelemetry) string {
	parts := make([]string, 0, len(g.GPUs))
	for _, s := range g.GPUs {
		e, p := "energy unknown", "power n/a"
		if s.EnergyJ != nil {
			e = joules(*s.EnergyJ) + " (" + strings.ReplaceAll(s.EnergyMethod, "_", " ") + ")"
		}
		if s.PowerW.Mean != nil {
			p = "mean " + strconv.FormatFloat(*s.PowerW.Mean, 'f', 1, 64) + " W"
		}
		parts = append(parts, fmt.Sprintf("GPU %d %s: %s, %s, %d samples", s.Index, s.Name, e, p, s.Samples))
	}
	return "from " + g.Source + ": " + strings.Join(parts, "; ")
}

// joules renders an energy with four significant digits: 0.4321 J.
func joules(v float64) string {
	return strconv.FormatFloat(v, 'g', 4, 64) + " J"
}

// String names the objective, for MeetSLOs and spec reports.
func (m energyMatcher) String() string {
	return fmt.Sprintf("energy per %s < %s", m.unit(), joules(m.limit))
}
