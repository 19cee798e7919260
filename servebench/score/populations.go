package score

import (
	"fmt"

	"github.com/servebench/servebench/internal/numfmt"
	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/servebench/report"
	"github.com/servebench/servebench/servebench/stats"
)

// populations collects the latency populations behind a report's
// distributions, one per metric in report order (Metrics), each counted
// without keeping every value (see population).
type populations struct {
	pops [len(reportMetricIndex)]*population
	// tokenLevelRequests counts successes whose gaps entered MetricITL.
	tokenLevelRequests int
	// gapRequests counts successes with at least two content events.
	gapRequests int
	// itlIsChunk is true while every success whose gaps entered
	// MetricChunkGap was token level: MetricITL is then the same sample,
	// and its raw samples (when kept) are MetricChunkGap's.
	itlIsChunk bool
	// keep says whether the raw samples are kept as well.
	keep bool
	// earlyDuration is e − d over sent requests scheduled in the window's
	// first quarter, for the backlog's settling test.
	earlyDuration *population
	// gaps holds one request's gaps between content events while they
	// are counted, reused from one request to the next.
	gaps []float64
	// pending holds each metric's values not yet counted (see add).
	pending [len(reportMetricIndex)][]float64
}

// reportMetricIndex numbers the metrics of a report, in report order
// (Metrics).
var reportMetricIndex = [...]record.Metric{
	popTTFT: record.MetricTTFT, popTTFTFromScheduled: record.MetricTTFTFromScheduled, popTPOT: record.MetricTPOT,
	popITL: record.MetricITL, popChunkGap: record.MetricChunkGap, popMaxGap: report.MetricMaxGap, popE2E: record.MetricE2E,
	popLastToken: record.MetricLastToken, popScheduleLag: record.MetricScheduleLag, popClientQueue: record.MetricClientQueue,
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

// newPopulations makes empty populations; keep says whether to keep every
// raw sample too (so that a fresh report answers any percentile).
func newPopulations(keep bool) *populations {
	p := &populations{itlIsChunk: true, keep: keep, earlyDuration: newPopulation(false)}
	for i := range p.pops {
		p.pops[i] = newPopulation(keep && i != popITL)
	}
	return p
}

// add counts v into metric m's population. Without the raw samples the
// values wait in a short buffer per metric and are counted in a batch
// (population.addAll): one request's values land far apart in counters
// that span megabytes, and a tight loop over many values lets the memory
// reads overlap. A population is read only after flush.
func (p *populations) add(m int, v float64) {
	if p.keep {
		p.pops[m].add(v)
		return
	}
	buf := append(p.pending[m], v)
	if len(buf) == pendingValues {
		p.pops[m].addAll(buf)
		buf = buf[:0]
	}
	p.pending[m] = buf
}

// pendingValues is how many values of one metric wait to be counted.
const pendingValues = 256

// flush counts every value still waiting.
func (p *populations) flush() {
	for m, buf := range p.pending {
		if len(buf) > 0 {
			p.pops[m].addAll(buf)
			p.pending[m] = buf[:0]
		}
	}
}

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
		// gaps are counted apart, starting with those pooled so far.
		p.itlIsChunk = false
		p.flush()
		p.pops[popITL].close()
		p.pops[popITL] = p.pops[popChunkGap].clone(p.keep)
	}
	chunk, itl := p.pops[popChunkGap], p.pops[popITL]
	// While every gap is token level, MetricITL is MetricChunkGap's
	// sample: counted once.
	both := rec.tokenLevel && !p.itlIsChunk
	gaps := p.gaps[:0]
	for j := 1; j < len(rec.content); j++ {
		gaps = append(gaps, msBetween(rec.content[j-1], rec.content[j]))
	}
	p.gaps = gaps
	chunk.addAll(gaps)
	if both {
		itl.addAll(gaps)
	}
}

// summarize computes every population's distribution, and returns the raw
// samples when they were kept (sorted in place). It removes any temporary
// file the populations used.
func (p *populations) summarize(method stats.PercentileMethod, levels []float64, offered, successes int, defined func(record.Metric) bool) (map[record.Metric][]float64, map[record.Metric]report.Distribution, error) {
	defer p.close()
	p.flush()
	dists := make(map[record.Metric]report.Distribution, len(reportMetricIndex))
	var samples map[record.Metric][]float64
	if p.keep {
		samples = make(map[record.Metric][]float64, len(reportMetricIndex))
	}
	for i, m := range reportMetricIndex {
		if !defined(m) {
			continue // an API that does not define m: absent, never a number
		}
		pop := p.pops[i]
		if i == popITL && p.itlIsChunk {
			pop = p.pops[popChunkGap]
		}
		d, err := distributionOfPopulation(pop, method, levels)
		if err != nil {
			return nil, nil, err
		}
		d.Population = p.describe(m, pop.n, offered, successes)
		dists[m] = d
		if p.keep {
			xs := pop.samples
			if i == popITL && p.itlIsChunk {
				xs = p.pops[popChunkGap].samples
			}
			if xs == nil {
				xs = []float64{}
			}
			sortFloat64s(xs)
			samples[m] = xs
		}
	}
	return samples, dists, nil
}

// close removes the populations' temporary files.
func (p *populations) close() {
	for _, pop := range p.pops {
		pop.close()
	}
	p.earlyDuration.close()
}

// distributionOfPopulation summarizes a population; an empty one has N = 0
// and every value nil. The percentiles are those Percentile gives on the
// sorted sample.
func distributionOfPopulation(pop *population, method stats.PercentileMethod, levels []float64) (report.Distribution, error) {
	d := report.Distribution{N: pop.n}
	if pop.n == 0 {
		return d, nil
	}
	mean, _ := pop.mean()
	d.Mean = new(mean)
	qs := append([]float64{50, 90, 95, 99}, levels...)
	var ranks []int
	for _, q := range qs {
		ranks = append(ranks, percentileRanks(pop.n, q, method)...)
	}
	vals, err := pop.selectRanks(ranks)
	if err != nil {
		return d, err
	}
	byRank := make(map[int]float64, len(ranks))
	for j, r := range ranks {
		byRank[r] = vals[j]
	}
	at := func(q float64) *float64 { return new(percentileFromRanks(pop.n, q, method, byRank)) }
	d.P50, d.P90, d.P95, d.P99 = at(50), at(90), at(95), at(99)
	d.Max, d.Min = new(pop.max), new(pop.min)
	for _, q := range levels {
		if d.Extra == nil {
			d.Extra = make(map[string]float64, len(levels))
		}
		d.Extra[report.PercentileKey(q)] = *at(q)
	}
	return d, nil
}

// describe names a population in words, with its size and what it is a
// part of.
func (p *populations) describe(m record.Metric, n, offered, successes int) string {
	switch m {
	case record.MetricTTFT:
		return fmt.Sprintf("successful requests (%d of %d offered): first content − sent", n, offered)
	case record.MetricTTFTFromScheduled:
		return fmt.Sprintf("successful requests (%d of %d offered): first content − scheduled", n, offered)
	case record.MetricTPOT:
		return fmt.Sprintf("successful requests with more than one output token and at least two content events (%d of %d successful)", n, successes)
	case record.MetricITL:
		return fmt.Sprintf("gaps between tokens, pooled over successful requests whose every event is proven to hold one token (%s from %s)", numfmt.Count(n, "gap", "gaps"), numfmt.Count(p.tokenLevelRequests, "request", "requests"))
	case record.MetricChunkGap:
		return fmt.Sprintf("gaps between content events, pooled over successful requests (%s from %s)", numfmt.Count(n, "gap", "gaps"), numfmt.Count(p.gapRequests, "request", "requests"))
	case report.MetricMaxGap:
		return fmt.Sprintf("worst gap between content events per successful request with at least two events (%s)", numfmt.Count(n, "request", "requests"))
	case record.MetricE2E:
		return fmt.Sprintf("successful requests (%d of %d offered): terminal − sent", n, offered)
	case record.MetricLastToken:
		return fmt.Sprintf("successful requests (%d of %d offered): last content − sent", n, offered)
	case record.MetricScheduleLag:
		return fmt.Sprintf("sent requests, whatever their outcome (%d of %d offered): sent − scheduled", n, offered)
	case record.MetricClientQueue:
		return fmt.Sprintf("requests with a recorded client concurrency slot time (%d of %d offered): slot − scheduled", n, offered)
	}
	return string(m)
}
