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
	_, err := io.WriteString(w, b.String())
	return err
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
func formatValue(s Series, v float64) string {
	if s.Relative {
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
