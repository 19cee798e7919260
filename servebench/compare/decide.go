package compare

import (
	"fmt"
	"slices"
	"strings"

	"github.com/servebench/servebench/servebench/record"
)

// Informational is the verdict of a statistic outside the deciding set:
// compared and reported with its interval, outside the family and the
// verdict. Its Leaning says what the interval would have said.
const Informational Verdict = "informational"

// DefaultDecide names the statistics that decide when no tolerance and
// no deciding set is named: attainment, the error rate and the medians of
// TPOT and E2E, the ones whose noise at 150 requests a round lets the
// default tolerances be decided within DefaultMaxRounds. At that size a
// p99 has one or two requests beyond it, too few to judge from a few
// rounds, and the TTFT median, which holds each request's queueing,
// varies from round to round by more than its 5 % tolerance on a loaded
// host; they are informational by default. Name them with Options.Decide
// (--decide), with tolerances measured by servebench noise, at a run size
// that gives each side enough observations beyond a p99.
func DefaultDecide() []string {
	return []string{"attainment", "error_rate", "tpot_p50", "e2e_p50"}
}

// decidingSet is the set of statistics that decide among tols: those of
// opts.Decide (each must be compared), else, with the default tolerances,
// those of DefaultDecide that are compared (every one if none is), else
// every named tolerance.
func decidingSet(opts Options, tols []Tolerance) (map[string]bool, error) {
	names := make([]string, len(tols))
	for i, t := range tols {
		names[i] = t.Name
	}
	set := map[string]bool{}
	switch {
	case opts.Decide != nil:
		for _, d := range opts.Decide {
			if !slices.Contains(names, d) {
				return nil, fmt.Errorf("decide: the deciding statistic %q is not compared (compared: %s); add a tolerance for it or leave it out of decide", d, strings.Join(names, ", "))
			}
			set[d] = true
		}
		if len(set) == 0 {
			return nil, fmt.Errorf("decide: empty; name at least one of %s", strings.Join(names, ", "))
		}
	case opts.Tolerances == nil:
		for _, d := range DefaultDecide() {
			if slices.Contains(names, d) {
				set[d] = true
			}
		}
	}
	if len(set) == 0 {
		for _, n := range names {
			set[n] = true
		}
	}
	return set, nil
}

// ParseDecide reads a comma-separated list of statistic names, each one
// Compare knows.
func ParseDecide(list string) ([]string, error) {
	var out []string
	for _, item := range strings.Split(list, ",") {
		item = strings.TrimSpace(item)
		if item == "" {
			continue
		}
		if _, err := statisticFor(item); err != nil {
			return nil, err
		}
		out = append(out, item)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("want a comma-separated list of statistics such as attainment,tpot_p50, got %q", list)
	}
	return out, nil
}

// CheckOptions refuses options that no comparison of runs of endpoint
// could take, before any run: a confidence outside (0, 1), a tolerance
// that is not positive, or a deciding statistic that is not compared.
func CheckOptions(opts Options, endpoint record.Endpoint) error {
	tols, err := checkOptions(&opts, endpoint)
	if err != nil {
		return err
	}
	_, err = decidingSet(opts, tols)
	return err
}
