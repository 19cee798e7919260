package history

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
)

// JSON is the history's indented JSON form, ending in a newline.
func (h *History) JSON() ([]byte, error) {
	b, err := json.MarshalIndent(h, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("history: %w", err)
	}
	return append(b, '\n'), nil
}

// WriteText writes the releases, then each metric's values and changes;
// series too short to show a change say so, and how many releases they
// need.
func (h *History) WriteText(w io.Writer) error {
	var b strings.Builder
	names := make([]string, len(h.Releases))
	for i, r := range h.Releases {
		names[i] = r.Name
	}
	fmt.Fprintf(&b, "releases, in order: %s\nmethod: %s\n", strings.Join(names, ", "), h.Method)
	notice := h.ShortNotice()
	if notice != "" {
		fmt.Fprintf(&b, "too short: %s\n", notice)
	}
	for _, s := range h.Metrics {
		vals := make([]string, len(s.Values))
		for i, v := range s.Values {
			vals[i] = formatValue(s, v)
		}
		fmt.Fprintf(&b, "%s: %s\n", s.Metric, strings.Join(vals, " "))
		switch {
		case notice != "":
			b.WriteString("  no change can be shown (too short)\n")
		case len(s.Changes) == 0:
			b.WriteString("  no change\n")
		}
		for _, c := range s.Changes {
			fmt.Fprintf(&b, "  %s\n", c.Describe(s))
		}
	}
	h.writeRatioText(&b)
	fmt.Fprintf(&b, "%s\n", h.Verdict.Headline())
	for _, r := range h.Verdict.Reasons {
		fmt.Fprintf(&b, "  %s\n", r)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// writeRatioText writes the ratio policy's rule, then per judged series
// each judged release: ok, or its violation with value and bound.
func (h *History) writeRatioText(b *strings.Builder) {
	if h.Ratio == nil {
		return
	}
	fmt.Fprintf(b, "ratio policy: %s\n", h.Ratio.Rule())
	for _, s := range h.Ratio.Series {
		marks := make([]string, len(s.Points))
		for i, p := range s.Points {
			marks[i] = p.Release + " " + p.Mark(s)
		}
		if len(marks) == 0 {
			marks = []string{fmt.Sprintf("no release has %d before it", h.Ratio.Window)}
		}
		fmt.Fprintf(b, "  %s: %s\n", s.Metric, strings.Join(marks, ", "))
	}
}

// Rule states the ratio policy's rule with its window and ratio.
func (a *RatioAnalysis) Rule() string {
	return fmt.Sprintf("a release violates when a latency is above %g × the median of the %d releases before it, or a throughput below %g × (attainment and error rate are not judged); the newest release is a regression when it and the one before both violate on one statistic",
		a.Ratio, a.Window, 2-a.Ratio)
}

// Mark is a judged release's word: "ok", or "violates" with its value and
// bound.
func (p RatioPoint) Mark(s RatioSeries) string {
	if !p.Violates {
		return "ok"
	}
	rel := ">"
	if s.LessIsWorse {
		rel = "<"
	}
	return fmt.Sprintf("violates (%s %s %s)", formatMetric(s.Metric, p.Value), rel, formatMetric(s.Metric, p.Bound))
}

// Headline is the verdict's line: "newest release v6 under the ratio
// policy: regression".
func (v Verdict) Headline() string {
	return fmt.Sprintf("newest release %s under the %s policy: %s", v.Release, v.Policy, v.Outcome)
}

// Describe is one line on a change: where it started, its levels, its
// size with its interval (positive is worse) and its p-value.
func (c Change) Describe(s Series) string {
	interval := "no interval (one release on each side)"
	if c.CILow != nil && c.CIHigh != nil {
		interval = fmt.Sprintf("interval [%s, %s]", formatSize(s, *c.CILow), formatSize(s, *c.CIHigh))
	}
	return fmt.Sprintf("change starting at %s: %s -> %s, %s (%s; positive is worse), p = %.3f",
		c.Release, formatValue(s, c.Before), formatValue(s, c.After), formatSize(s, c.Size), interval, c.P)
}

// formatValue prints a level in the metric's unit.
func formatValue(s Series, v float64) string { return formatMetric(s.Metric, v) }

// formatMetric prints a value of metric m in its unit: ms for latency,
// req/s or tokens/s for a throughput, a plain fraction otherwise.
func formatMetric(m string, v float64) string {
	switch {
	case m == QualifiedRPS:
		return fmt.Sprintf("%.3f req/s", v)
	case m == OutputTokensPerSecond:
		return fmt.Sprintf("%.1f tokens/s", v)
	case relative(m):
		return fmt.Sprintf("%.2f ms", v)
	}
	return fmt.Sprintf("%.4f", v)
}

// formatSize prints a change: a percentage for latency, points otherwise.
func formatSize(s Series, v float64) string {
	if s.Relative {
		return fmt.Sprintf("%+.2f%%", 100*v)
	}
	return fmt.Sprintf("%+.2f pt", 100*v)
}
