package suites

import (
	"fmt"
	"strings"

	"github.com/servebench/servebench/servebench/compare"
)

// ComparisonEntryName names the report entry every load point of a
// contract with a baseline attaches.
const ComparisonEntryName = ReportEntryName + "-comparison"

// ComparisonEntry is the report entry of one load point's A/B comparison:
// a one-line summary on the console, and in Ginkgo's JSON report the path
// of the full comparison, compare.json, kept in the A/B directory.
type ComparisonEntry struct {
	Contract  string `json:"contract"`
	LoadPoint string `json:"load_point"`
	// Dir is the A/B directory, holding baseline/round-K and
	// candidate/round-K run directories, compare.json, compare.txt and compare.html.
	Dir string `json:"dir"`
	// File is the path of compare.json.
	File    string          `json:"file"`
	Verdict compare.Verdict `json:"verdict"`
	// ExitCode is what servebench compare would exit with.
	ExitCode int `json:"exit_code"`

	comparison *compare.Comparison
}

// newComparisonEntry describes a finished comparison written into dir.
func newComparisonEntry(contract, point, dir, file string, c *compare.Comparison) *ComparisonEntry {
	return &ComparisonEntry{Contract: contract, LoadPoint: point, Dir: dir, File: file, Verdict: c.Verdict, ExitCode: c.ExitCode(), comparison: c}
}

// ColorableString renders the comparison in one line: the verdict and its
// exit code, the rounds, every statistic not judged no_regression with its
// change and interval, and where the full comparison is.
func (e *ComparisonEntry) ColorableString() string {
	c := e.comparison
	var b strings.Builder
	color := "{{red}}"
	if c.Verdict == compare.NoRegression {
		color = "{{green}}"
	}
	fmt.Fprintf(&b, "{{bold}}%s, %s against baseline{{/}}: %s%s{{/}} (exit %d), %d rounds per side",
		e.Contract, e.LoadPoint, color, c.Verdict, e.ExitCode, c.Rounds.Baseline)
	if c.Engines != "" {
		engines, _, _ := strings.Cut(c.Engines, ":")
		fmt.Fprintf(&b, ", engines %s", engines)
	}
	var other []string
	for _, m := range c.Comparisons {
		if m.Verdict != compare.NoRegression {
			other = append(other, fmt.Sprintf("%s %s %s [%s, %s]", m.Name, m.Verdict, signed(m, m.Change), signed(m, m.CILow), signed(m, m.CIHigh)))
		}
	}
	if len(other) > 0 {
		fmt.Fprintf(&b, "; %s", strings.Join(other, "; "))
	} else {
		fmt.Fprintf(&b, "; all %d statistics within tolerance", len(c.Comparisons))
	}
	if !c.Valid {
		b.WriteString("; {{red}}a run did not deliver its load{{/}}")
	}
	fmt.Fprintf(&b, "; full comparison %s", e.File)
	return b.String()
}

// signed prints a change as the comparison does: a percentage for a
// relative comparison, points for an absolute one.
func signed(m compare.MetricComparison, v float64) string {
	if m.Kind == compare.KindRelative {
		return fmt.Sprintf("%+.1f%%", 100*v)
	}
	return fmt.Sprintf("%+.2f pt", 100*v)
}
