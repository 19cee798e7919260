package matchers_test

import (
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/servebench/servebench/matchers"
	"github.com/servebench/servebench/servebench/capacity"
	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/servebench/report"
	"github.com/servebench/servebench/sweepreport"
)

// ttftCurve is a sweep whose reports keep only their stored p99 TTFT: 120
// ms at 2 req/s, 300 and 520 ms for the two runs at 4 req/s, 900 ms at 8.
func ttftCurve() *capacity.Sweep {
	rep := func(p99 float64) *report.Report {
		return &report.Report{Offered: 10, Qualified: 10, Percentiles: map[record.Metric]report.Distribution{
			record.MetricTTFT: {Population: "successful requests", N: 10, P99: &p99}}}
	}
	return &capacity.Sweep{Points: []capacity.Point{
		{OfferedRPS: 8, Repeat: 1, Report: rep(900)},
		{OfferedRPS: 2, Repeat: 1, Report: rep(120)},
		{OfferedRPS: 4, Repeat: 1, Report: rep(300)},
		{OfferedRPS: 4, Repeat: 2, Report: rep(520)},
	}}
}

var _ = Describe("HaveLatencyCurveBelow", func() {
	It("judges every run up to the rate and names the first that breaks the curve", func() {
		Expect(ttftCurve()).To(matchers.HaveLatencyCurveBelow(record.MetricTTFT, 99, 500*time.Millisecond, 3))
		Expect(ttftCurve()).To(matchers.HaveLatencyCurveBelow(record.MetricTTFT, 99, 520*time.Millisecond, 4))
		m := matchers.HaveLatencyCurveBelow(record.MetricTTFT, 99, 500*time.Millisecond, 4)
		Expect(ttftCurve()).NotTo(m)
		Expect(m.FailureMessage(ttftCurve())).To(Equal(`Expected p99 TTFT to stay at or under 500ms up to 4 req/s, but at 4 req/s (run 2) it is 520.0 ms
curve (req/s: ms):
    2 (run 1): 120.0
    4 (run 1): 300.0
    4 (run 2): 520.0
    8 (run 1): 900.0 (above the range, not judged)`))
	})

	It("reads sweep.json rows, failing an undefined percentile", func() {
		p99 := 80.0
		res := sweepreport.Result{Rates: []sweepreport.Rate{
			{RateRPS: 1, Repeat: 1, TTFTP99MS: &p99},
			{RateRPS: 2, Repeat: 1},
		}}
		Expect(res).To(matchers.HaveLatencyCurveBelow(record.MetricTTFT, 99, 100*time.Millisecond, 1))
		m := matchers.HaveLatencyCurveBelow(record.MetricTTFT, 99, 100*time.Millisecond, 2)
		Expect(&res).NotTo(m)
		Expect(m.FailureMessage(res)).To(HavePrefix("Expected p99 TTFT to stay at or under 100ms up to 2 req/s, but at 2 req/s (run 1) it is undefined (no successful request)"))
	})

	It("refuses what it cannot judge", func() {
		_, err := matchers.HaveLatencyCurveBelow(record.MetricTTFT, 99, time.Second, 1).Match(ttftCurve())
		Expect(err).To(MatchError(ContainSubstring("no tested rate is at or below 1 req/s")))
		_, err = matchers.HaveLatencyCurveBelow(record.MetricITL, 95, time.Second, 8).Match(sweepreport.Result{})
		Expect(err).To(MatchError(ContainSubstring("sweep.json keeps p50, p90 and p99")))
		_, err = matchers.HaveLatencyCurveBelow(record.MetricTTFT, 0, time.Second, 8).Match(ttftCurve())
		Expect(err).To(HaveOccurred())
		_, err = matchers.HaveLatencyCurveBelow(record.MetricTTFT, 99, time.Second, 8).Match("sweep")
		Expect(err).To(HaveOccurred())
	})
})
