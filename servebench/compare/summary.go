package compare

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
)

// summaryInvalidLimit is how many runs that did not deliver their load
// the summary names; the full text names every one.
const summaryInvalidLimit = 3

// WriteSummary writes the comparison on one screen: the load line given
// (what each run offered), the verdict with its exit code, whether every
// run delivered its load, the rounds, and per statistic the baseline,
// the candidate, the change and its verdict; then where the full
// comparison is (full, one line each). WriteText has every column.
func (c *Comparison) WriteSummary(w io.Writer, load string, full []string) error {
	var b strings.Builder
	line := func(label, format string, args ...any) {
		if label != "" {
			label += ":"
		}
		fmt.Fprintf(&b, "%-12s %s\n", label, fmt.Sprintf(format, args...))
	}
	if load != "" {
		line("load", "%s", load)
	}
	line("verdict", "%s (exit %d)", c.Verdict, c.ExitCode())
	if c.BlindToRunVariance {
		line("", "advisory: one round per side is blind to run-to-run variance; run 2 or more rounds")
	}
	c.writeValiditySummary(line)
	line("rounds", "baseline %d, candidate %d", c.Rounds.Baseline, c.Rounds.Candidate)
	if c.Stopping != nil {
		line("stopping", "%s", c.Stopping.Describe())
	}
	if c.SameServer != "" {
		line("WARNING", "%s", c.SameServer)
	}
	tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "statistic\tbaseline\tcandidate\tchange (+ is worse)\tverdict")
	for _, m := range c.Comparisons {
		fmt.Fprintf(tw, "  %s\t%s\t%s\t%s\t%s\n", m.Name, m.formatValue(m.Baseline), m.formatValue(m.Candidate), m.formatChange(m.Change), m.verdictText())
	}
	tw.Flush()
	for i, f := range full {
		label := ""
		if i == 0 {
			label = "full report"
		}
		line(label, "%s", f)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// writeValiditySummary says whether every run delivered its load, and if
// not names the first that did not.
func (c *Comparison) writeValiditySummary(line func(label, format string, args ...any)) {
	if c.Valid {
		line("valid", "yes: every run delivered its load")
		return
	}
	line("valid", "NO: not evidence, a run did not deliver its load")
	for i, r := range c.InvalidRuns {
		if i == summaryInvalidLimit {
			line("", "- and %d more (in the full report)", len(c.InvalidRuns)-summaryInvalidLimit)
			break
		}
		line("", "- %s", r)
	}
}
