package compare

import (
	"fmt"
	"slices"
	"strings"

	"github.com/servebench/servebench/servebench/report"
)

// selection narrows a statistic to the requests with one value of one
// breakdown dimension: ttft_p99[adapter=sql] is the TTFT p99 of the
// requests sent to adapter sql, attainment[modality=image] the attainment
// of the requests that carried images. It is the breakdown of report.json
// (report.BreakdownSources), compared round by round like the whole run.
type selection struct {
	dimension, value string
	of               func(*report.RequestScore) string
	unset            string
}

// String is the selector as written: [adapter=sql].
func (sel *selection) String() string {
	return "[" + sel.dimension + "=" + sel.value + "]"
}

// parseSelection splits NAME[DIMENSION=VALUE] into NAME and its selection;
// a name without brackets has none.
func parseSelection(name string) (string, *selection, error) {
	open := strings.IndexByte(name, '[')
	if open < 0 {
		return name, nil, nil
	}
	inner, ok := strings.CutSuffix(name[open+1:], "]")
	dimension, value, hasEq := strings.Cut(inner, "=")
	if !ok || !hasEq || dimension == "" || value == "" {
		return "", nil, fmt.Errorf("statistic %q: a breakdown selection is written NAME[DIMENSION=VALUE], e.g. ttft_p99[adapter=sql]", name)
	}
	for _, src := range report.BreakdownSources() {
		if src.Name == dimension {
			return name[:open], &selection{dimension: dimension, value: value, of: src.Of, unset: src.Unset}, nil
		}
	}
	return "", nil, fmt.Errorf("statistic %q: unknown breakdown dimension %q: want one of %s", name, dimension,
		strings.Join(report.BreakdownDimensions(), ", "))
}

// holds reports whether request q is in the selection; every request is
// when there is none.
func (sel *selection) holds(q *report.RequestScore) bool {
	if sel == nil {
		return true
	}
	v := sel.of(q)
	if v == "" {
		v = sel.unset
		if v == "" {
			v = report.BreakdownNone
		}
	}
	return v == sel.value
}

// breakdownValue is the selection's entry in r's breakdown; nil when r has
// none (no request in the run had the value).
func (sel *selection) breakdownValue(r *report.Report) *report.BreakdownValue {
	d, ok := r.Breakdown[sel.dimension]
	if !ok {
		return nil
	}
	if v, ok := d.Values[sel.value]; ok {
		return &v
	}
	return nil
}

// missing is the error for a run without the selection's value, naming
// the values it has.
func (sel *selection) missing(r *report.Report) error {
	d, ok := r.Breakdown[sel.dimension]
	if !ok {
		return fmt.Errorf("the run has no %s breakdown (no request carried a %s)", sel.dimension, sel.dimension)
	}
	values := make([]string, 0, len(d.Values))
	for v := range d.Values {
		values = append(values, v)
	}
	slices.Sort(values)
	return fmt.Errorf("the run has no request with %s %q (its values: %s)", sel.dimension, sel.value, strings.Join(values, ", "))
}
