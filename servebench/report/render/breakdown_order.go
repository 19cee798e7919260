package render

import (
	"cmp"
	"slices"
	"strconv"

	"github.com/servebench/servebench/servebench/report"
)

// breakdownValues lists a dimension's values in report order: whole
// numbers first, in numeric order (turns "1", "2", …, "10"), then the
// other values by name.
func breakdownValues(dim *report.BreakdownDimension) []string {
	keys := sortedKeys(dim.Values)
	slices.SortStableFunc(keys, func(a, b string) int {
		x, errA := strconv.Atoi(a)
		y, errB := strconv.Atoi(b)
		switch {
		case errA == nil && errB == nil:
			return cmp.Compare(x, y)
		case errA == nil:
			return -1
		case errB == nil:
			return 1
		}
		return cmp.Compare(a, b)
	})
	return keys
}
