package compare

import "github.com/servebench/servebench/servebench/record"

// noisePrior is the run-to-run noise (the standard deviation of one
// round's figure, as a fraction of it) that the plan check assumes for a
// latency metric's median and for its tail percentiles at
// priorRequestsAround requests a round.
type noisePrior struct{ median, tail float64 }

// latencyPriors are the noise priors of TTFT, TPOT and E2E: the median,
// rounded up to half a percent, of the noise that the valid-load A/A
// repetitions of docs/ab-calibration.md measured (cmd/abcalibrate at 150
// requests a run against the simulated engine, on a shared 2-core host, 87
// repetitions: medians 5.23 % and 98.4 % for TTFT p50 and p99, 1.90 % and
// 25.1 % for TPOT, 2.08 % and 27.9 % for E2E; the command is in that
// document). TTFT holds each
// request's queueing, so its median varies from round to round about twice
// as much as TPOT's and E2E's; a p99 of 150 requests rests on the two
// values at the top of each round. servebench noise measures an engine's
// own, which replaces these.
var latencyPriors = map[record.Metric]noisePrior{
	record.MetricTTFT: {median: 0.055, tail: 0.985},
	record.MetricTPOT: {median: 0.02, tail: 0.255},
	record.MetricE2E:  {median: 0.025, tail: 0.28},
}

// otherLatencyPrior is the prior of a metric latencyPriors does not name
// (the pooled gaps, the client queue): the largest of TPOT's and E2E's.
var otherLatencyPrior = noisePrior{median: 0.025, tail: 0.28}

// latencyPrior is the prior noise of a latency percentile at
// priorRequestsAround requests a round: the median's up to p50, the
// tail's above it.
func latencyPrior(s statistic) float64 {
	p, ok := latencyPriors[s.metric]
	if !ok {
		p = otherLatencyPrior
	}
	if s.p > 50 {
		return p.tail
	}
	return p.median
}
