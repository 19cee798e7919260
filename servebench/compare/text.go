package compare

import (
	"fmt"
	"io"
	"math"
	"strings"
	"text/tabwriter"
)

// WriteText writes the comparison as a plain-text summary.
func (c *Comparison) WriteText(w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "verdict: %s (exit %d)\n", c.Verdict, c.ExitCode())
	if !c.Valid {
		b.WriteString("NOT EVIDENCE: a run did not deliver its load\n")
		for _, r := range c.InvalidRuns {
			fmt.Fprintf(&b, "  %s\n", r)
		}
	}
	if len(c.AllowedDifferences) > 0 {
		b.WriteString("allowed with --allow-different-workloads: the runs differ, so the verdict rests on unlike runs:\n")
		for _, d := range c.AllowedDifferences {
			fmt.Fprintf(&b, "  %s\n", d)
		}
	}
	if c.Verdict == Inconclusive && c.AllowInconclusive {
		b.WriteString("inconclusive allowed to pass (--allow-inconclusive)\n")
	}
	fmt.Fprintf(&b, "rounds: baseline %d, candidate %d\n", c.Rounds.Baseline, c.Rounds.Candidate)
	if c.Stopping != nil {
		fmt.Fprintf(&b, "stopping: %s\n", c.Stopping.Describe())
	}
	if c.SameServer != "" {
		fmt.Fprintf(&b, "WARNING: %s\n", c.SameServer)
	}
	if c.RunOrder != nil {
		fmt.Fprintf(&b, "order: %s\n", c.RunOrder.Describe())
	}
	if c.Engines != "" {
		fmt.Fprintf(&b, "engines: %s\n", c.Engines)
	}
	fmt.Fprintf(&b, "method: %s\n", c.Method)
	fmt.Fprintf(&b, "family: %s\n", c.Family)
	if c.BlindToRunVariance {
		b.WriteString("ADVISORY: one round per side; these intervals are blind to run-to-run variance, so no verdict is given (exit 6); run 2 or more rounds (servebench ab runs rounds until decided by default)\n")
	}
	b.WriteString("(change, interval and tolerance: positive is worse)\n")
	tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "statistic\tbaseline\tcandidate\tchange\tinterval\ttolerance\tnoise/round\tdetectable\tverdict")
	for _, m := range c.Comparisons {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t[%s, %s]\t%s\t%s\t%s\t%s\n", m.Name,
			m.formatValue(m.Baseline), m.formatValue(m.Candidate),
			m.formatChange(m.Change), m.formatChange(m.CILow), m.formatChange(m.CIHigh),
			m.formatTolerance(), m.formatNoise(), m.formatChange(m.MinDetectableEffect), m.verdictText())
	}
	tw.Flush()
	b.WriteString("(detectable: the smallest change these rounds and this noise would have called a regression)\n")
	for _, m := range c.Comparisons {
		if line := m.successOnlyLine(); line != "" {
			fmt.Fprintf(&b, "%s\n", line)
		}
	}
	for _, m := range c.Comparisons {
		if m.Decide != "" {
			fmt.Fprintf(&b, "%s: %s\n", m.Name, m.Decide)
		}
	}
	for _, n := range c.Notes {
		fmt.Fprintf(&b, "note: %s\n", n)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// formatValue prints a statistic in its unit.
func (m MetricComparison) formatValue(v float64) string {
	if s, ok := nonFinite(v); ok {
		return s
	}
	switch m.Unit {
	case "fraction":
		return fmt.Sprintf("%.4f", v)
	case "rps":
		return fmt.Sprintf("%.3f/s", v)
	}
	return fmt.Sprintf("%.2f ms", v)
}

// formatChange prints a change: a percentage for a relative comparison,
// points for an absolute one.
func (m MetricComparison) formatChange(v float64) string {
	if s, ok := nonFinite(v); ok {
		return s
	}
	if m.Kind == KindRelative {
		return fmt.Sprintf("%+.2f%%", 100*v)
	}
	return fmt.Sprintf("%+.2f pt", 100*v)
}

// successOnlyLine labels the success-only figure of a latency percentile
// when failures changed it; "" otherwise.
func (m MetricComparison) successOnlyLine() string {
	so := m.SuccessOnly
	if so == nil || (so.Baseline == m.Baseline && so.Candidate == m.Candidate) {
		return ""
	}
	rel := MetricComparison{Kind: KindRelative, Unit: m.Unit}
	return fmt.Sprintf("%s over successful requests only (failures left out, not the verdict's figure): baseline %s, candidate %s, change %s",
		m.Name, m.formatValue(so.Baseline), m.formatValue(so.Candidate), rel.formatChange(so.Change))
}

// nonFinite names a figure that is not a finite number: "+inf" for an
// unbounded side, "n/a" where no figure is defined.
func nonFinite(v float64) (string, bool) {
	switch {
	case math.IsInf(v, 1):
		return "+inf", true
	case math.IsInf(v, -1):
		return "-inf", true
	case math.IsNaN(v):
		return "n/a", true
	}
	return "", false
}

// formatNoise prints the measured run-to-run noise, or "-" with one round.
func (m MetricComparison) formatNoise() string {
	if m.Noise == nil {
		return "-"
	}
	return strings.TrimPrefix(m.formatChange(*m.Noise), "+")
}

// verdictText is the verdict, with the leaning of an advisory result.
func (m MetricComparison) verdictText() string {
	if m.Verdict == Advisory || m.Verdict == Informational {
		return fmt.Sprintf("%s (leaning %s)", m.Verdict, m.Leaning)
	}
	return string(m.Verdict)
}

// formatTolerance prints the tolerance in the comparison's terms.
func (m MetricComparison) formatTolerance() string {
	pct := math.Round(100*m.Tolerance*1e9) / 1e9 // 7, not 7.000000000000001
	if m.Kind == KindRelative {
		return fmt.Sprintf("%g%%", pct)
	}
	return fmt.Sprintf("%g pt", pct)
}

// Describe is one line on a comparison: both values, the change, its
// interval, the tolerance and the verdict.
func (m MetricComparison) Describe() string {
	return fmt.Sprintf("%s: baseline %s, candidate %s, change %s (interval [%s, %s], tolerance %s): %s",
		m.Name, m.formatValue(m.Baseline), m.formatValue(m.Candidate), m.formatChange(m.Change),
		m.formatChange(m.CILow), m.formatChange(m.CIHigh), m.formatTolerance(), m.verdictText())
}
