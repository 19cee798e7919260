package compare

import (
	"testing"

	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/servebench/report"
	"github.com/servebench/servebench/servebench/stats"
)

func fptr(v float64) *float64 { return &v }

// attainmentReport is a valid report with qualified of offered requests
// qualified, every one a success.
func attainmentReport(qualified, offered int) *report.Report {
	a := float64(qualified) / float64(offered)
	return &report.Report{
		Schema: report.ReportSchema, Offered: offered, ProtocolSuccesses: offered, Qualified: qualified,
		Attainment: &a, Valid: true, Inputs: report.Inputs{WorkloadSHA256: "w1"},
		PercentileMethod: stats.NearestRank,
	}
}

// ttftReport is a valid report whose successful requests have the given
// TTFTs, with the population the scorer would summarize.
func ttftReport(ttfts ...float64) *report.Report {
	r := attainmentReport(len(ttfts), len(ttfts))
	for _, v := range ttfts {
		r.Requests = append(r.Requests, report.RequestScore{Status: record.StatusSuccess, TTFTMS: fptr(v)})
	}
	r.Percentiles = map[record.Metric]report.Distribution{record.MetricTTFT: {N: len(ttfts)}}
	return r
}

func near(t *testing.T, what string, got, want, tol float64) {
	t.Helper()
	if d := got - want; d > tol || d < -tol {
		t.Errorf("%s = %.6f, want %.6f (±%g)", what, got, want, tol)
	}
}
