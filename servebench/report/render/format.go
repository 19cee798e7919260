package render

import (
	"math"

	"github.com/servebench/servebench/internal/numfmt"
)

// Numbers for people are written through internal/numfmt (see its package
// comment for the conventions); these names remain for the chart code that
// calls them.

// htmlMS formats milliseconds compactly (numfmt.Compact).
func htmlMS(ms float64) string { return numfmt.Compact(ms) }

// htmlPercent formats an optional fraction as a percentage (numfmt.OptPercent).
func htmlPercent(v *float64) string { return numfmt.OptPercent(v) }

// finite reports whether v is neither NaN nor infinite.
func finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }
