package main

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/servebench/servebench/servebench/report"
	"github.com/servebench/servebench/servebench/report/render"
)

// printReport writes the report as text, JSON or an HTML page.
func printReport(w io.Writer, r *report.Report, format string) error {
	if format == "html" {
		return render.HTML(w, r)
	}
	if format == "json" {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(r)
	}
	return render.Text(w, r)
}

// verdictExitCode maps a run's report to the exit code: 2 when the load was
// not delivered, 3 when a valid run missed the required attainment or a
// threshold did not pass (thresholdsPassed false), else 0.
func verdictExitCode(r *report.Report, requireAttainment float64, thresholdsPassed bool, stderr io.Writer) int {
	if !r.Valid {
		fmt.Fprintln(stderr, "load not delivered: the run is not evidence for its offered rate")
		for _, why := range r.InvalidReasons {
			fmt.Fprintf(stderr, "  - %s\n", why)
		}
		return 2
	}
	if short, missed := attainmentShortfall(r, requireAttainment); missed {
		fmt.Fprintln(stderr, short)
		return 3
	}
	if !thresholdsPassed {
		fmt.Fprintln(stderr, "a threshold did not pass (an unjudged one, with no value, fails it too under --unjudged fail)")
		return 3
	}
	return 0
}

// attainmentShortfall says how a run's attainment falls short of
// --require-attainment, and whether it does; a negative requirement is
// none.
func attainmentShortfall(r *report.Report, requireAttainment float64) (string, bool) {
	if requireAttainment < 0 || (r.Attainment != nil && *r.Attainment >= requireAttainment) {
		return "", false
	}
	got := "undefined"
	if r.Attainment != nil {
		got = fmt.Sprintf("%.3f", *r.Attainment)
	}
	return fmt.Sprintf("attainment %s (%d of %d offered) is below the required %.3f", got, r.Qualified, r.Offered, requireAttainment), true
}
