package servebench

import (
	"fmt"

	"github.com/servebench/servebench/servebench/stats"
)

// MetricMaxGap is each successful request's worst gap between content
// events: a population of requests, unlike the pooled gaps of MetricITL and
// MetricChunkGap, in which a long response weighs more.
const MetricMaxGap Metric = "max_gap_ms"

// reportMetrics lists every population a Report summarizes, in report order.
var reportMetrics = reportMetricIndex[:]

// populations collects the raw samples behind a report's distributions,
// one slice per metric in reportMetrics order.
type populations struct {
	samples [len(reportMetricIndex)][]float64
	// tokenLevelRequests counts successes whose gaps entered MetricITL.
	tokenLevelRequests int
	// gapRequests counts successes with at least two content events.
	gapRequests int
	// itlIsChunk is true while every success whose gaps entered
	// MetricChunkGap was token level: MetricITL is then the same sample,
	// kept once and sorted once. events sizes MetricITL once it differs.
	itlIsChunk bool
	events     int
}

// reportMetricIndex numbers the metrics of reportMetrics.
var reportMetricIndex = [...]Metric{
	popTTFT: MetricTTFT, popTTFTFromScheduled: MetricTTFTFromScheduled, popTPOT: MetricTPOT,
	popITL: MetricITL, popChunkGap: MetricChunkGap, popMaxGap: MetricMaxGap, popE2E: MetricE2E,
	popLastToken: MetricLastToken, popScheduleLag: MetricScheduleLag, popClientQueue: MetricClientQueue,
}

const (
	popTTFT = iota
	popTTFTFromScheduled
	popTPOT
	popITL
	popChunkGap
	popMaxGap
	popE2E
	popLastToken
	popScheduleLag
	popClientQueue
)

// newPopulations sizes every population for the records, so appending
// never copies.
func newPopulations(recs []scoreRecord) *populations {
	n, events := len(recs), 0
	for i := range recs {
		events += len(recs[i].content)
	}
	p := &populations{itlIsChunk: true, events: events}
	for i := range p.samples {
		if i != popITL {
			p.samples[i] = make([]float64, 0, n)
		}
	}
	p.samples[popChunkGap] = make([]float64, 0, events)
	return p
}

func (p *populations) add(m int, v float64) { p.samples[m] = append(p.samples[m], v) }

// addSuccess adds a successful request's latencies.
func (p *populations) addSuccess(rec *scoreRecord, m *requestMeasures) {
	if m.hasContent {
		p.add(popTTFT, m.ttft)
		p.add(popTTFTFromScheduled, m.ttftFromScheduled)
		p.add(popLastToken, m.lastToken)
	}
	if m.hasTPOT {
		p.add(popTPOT, m.tpot)
	}
	if m.hasE2E {
		p.add(popE2E, m.e2e)
	}
	if !m.hasMaxGap {
		return
	}
	p.gapRequests++
	p.add(popMaxGap, m.maxGap)
	if rec.tokenLevel {
		p.tokenLevelRequests++
	} else if p.itlIsChunk {
		// The first gaps not proven token level: from here on the token
		// gaps are kept apart, starting with those pooled so far.
		p.samples[popITL] = append(make([]float64, 0, p.events), p.samples[popChunkGap]...)
		p.itlIsChunk = false
	}
	chunk, itl := p.samples[popChunkGap], p.samples[popITL]
	keepITL := rec.tokenLevel && !p.itlIsChunk
	for j := 1; j < len(rec.content); j++ {
		g := msBetween(rec.content[j-1], rec.content[j])
		chunk = append(chunk, g)
		if keepITL {
			itl = append(itl, g)
		}
	}
	p.samples[popChunkGap], p.samples[popITL] = chunk, itl
}

// summarize sorts every population once and computes its distribution.
func (p *populations) summarize(method stats.PercentileMethod, offered, successes int) (map[Metric][]float64, map[Metric]Distribution) {
	dists := make(map[Metric]Distribution, len(reportMetricIndex))
	samples := make(map[Metric][]float64, len(reportMetricIndex))
	for i, m := range reportMetricIndex {
		if i == popITL && p.itlIsChunk {
			continue // MetricChunkGap's sample, summarized below
		}
		xs := p.samples[i]
		sortFloat64s(xs)
		d := distributionOf(xs, method)
		d.Population = p.describe(m, len(xs), offered, successes)
		dists[m], samples[m] = d, xs
	}
	if p.itlIsChunk {
		d, xs := dists[MetricChunkGap], samples[MetricChunkGap]
		d.Population = p.describe(MetricITL, len(xs), offered, successes)
		dists[MetricITL], samples[MetricITL] = d, xs
	}
	return samples, dists
}

// distributionOf summarizes an ascending sample; an empty one has N = 0 and
// every value nil.
func distributionOf(sorted []float64, method stats.PercentileMethod) Distribution {
	d := Distribution{N: len(sorted)}
	if len(sorted) == 0 {
		return d
	}
	var sum float64
	for _, x := range sorted {
		sum += x
	}
	d.Mean = ptr(sum / float64(len(sorted)))
	at := func(q float64) *float64 {
		v, _ := stats.Percentile(sorted, q, method)
		return ptr(v)
	}
	d.P50, d.P90, d.P95, d.P99 = at(50), at(90), at(95), at(99)
	d.Max = ptr(sorted[len(sorted)-1])
	return d
}

// describe names a population in words, with its size and what it is a
// part of.
func (p *populations) describe(m Metric, n, offered, successes int) string {
	switch m {
	case MetricTTFT:
		return fmt.Sprintf("successful requests (%d of %d offered): first content − sent", n, offered)
	case MetricTTFTFromScheduled:
		return fmt.Sprintf("successful requests (%d of %d offered): first content − scheduled", n, offered)
	case MetricTPOT:
		return fmt.Sprintf("successful requests with more than one output token and at least two content events (%d of %d successful)", n, successes)
	case MetricITL:
		return fmt.Sprintf("gaps between tokens, pooled over successful requests whose every event is proven to hold one token (%d gaps from %d requests)", n, p.tokenLevelRequests)
	case MetricChunkGap:
		return fmt.Sprintf("gaps between content events, pooled over successful requests (%d gaps from %d requests)", n, p.gapRequests)
	case MetricMaxGap:
		return fmt.Sprintf("worst gap between content events per successful request with at least two events (%d requests)", n)
	case MetricE2E:
		return fmt.Sprintf("successful requests (%d of %d offered): terminal − sent", n, offered)
	case MetricLastToken:
		return fmt.Sprintf("successful requests (%d of %d offered): last content − sent", n, offered)
	case MetricScheduleLag:
		return fmt.Sprintf("sent requests, whatever their outcome (%d of %d offered): sent − scheduled", n, offered)
	case MetricClientQueue:
		return fmt.Sprintf("requests with a recorded client concurrency slot time (%d of %d offered): slot − scheduled", n, offered)
	}
	return string(m)
}
