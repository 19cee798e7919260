package matchers_test

import (
	"time"

	"github.com/servebench/servebench/matchers"
	"github.com/servebench/servebench/servebench/record"
)

func ExampleInBreakdown() {
	// adapterMix: adapter sql qualified 18 of its 20 requests, and its
	// TTFT p90 is 270 ms.
	report := adapterMix()
	g := printFailures()
	g.Expect(report).To(matchers.InBreakdown("adapter", "sql", matchers.HaveAttainmentAtLeast(0.9))) // passes
	g.Expect(report).To(matchers.InBreakdown("adapter", "sql",
		matchers.HaveLatencyPercentileBelow(record.MetricTTFT, 90, 270*time.Millisecond))) // passes
	g.Expect(report).To(matchers.InBreakdown("adapter", "sql", matchers.HaveWilsonLowerBoundAbove(0.8)))
	g.Expect(report).To(matchers.InBreakdown("adapter", "chat", matchers.HaveAttainmentAtLeast(0.9)))
	// Output:
	// in breakdown adapter=sql: Expected the one-sided 95% Wilson lower bound of attainment 73.8% (18 of 20 offered qualified, observed 90.0%) to be at least 80.0%
	// (at the observed 90.0%, about 42 offered requests would be needed to reach 80.0%)
	// unqualified requests by failed criterion (a request can fail several): ttft 2
	// terminal statuses: success 20
	// SLO: TTFT <= 300 ms (from sent)
	// worst unqualified requests:
	//     q20 success: scheduled 1900 ms, sent 1900 ms (lag 0 ms), TTFT 500 ms, TPOT 30 ms, E2E 531 ms; failed ttft
	//     q19 success: scheduled 1800 ms, sent 1800 ms (lag 0 ms), TTFT 450 ms, TPOT 30 ms, E2E 481 ms; failed ttft
	// InBreakdown cannot select adapter=chat: the adapter breakdown has no value chat (it has: base, sql)
}
