package score

import (
	"fmt"
	"math"

	"github.com/servebench/servebench/internal/numfmt"
	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/servebench/report"
	"github.com/servebench/servebench/servebench/schedule"
	"github.com/servebench/servebench/servebench/stats"
)

// scoreTally is the scoring core: it takes the cohort's records one at a
// time, fills each request's entry, and keeps only counts, running
// extremes and the latency populations, so that scoring a file can stream
// it. Its result does not depend on the order of the records (sums are
// exact, percentiles are selected from counts).
type scoreTally struct {
	set    scoreSetup
	r      *report.Report
	pop    *populations
	limits sloLimits

	unsent, notRecorded, judgedSuccesses int
	neverReached                         int
	lastTerminal                         float64
	flu                                  fluidityTally
	reasons                              reasonArena
	floats                               floatArena
	backlog                              backlogTally
	unqualified                          unqualifiedTally
	drift                                *driftTally // nil when left out
	throughput                           throughputTally
	prefixCache                          prefixCacheTally
	breakdown                            *breakdownTally
	errors                               report.ErrorMessageTally
	sessions                             sessionTally
	steady                               steadyTally
	// steadyWindow is the steady state finish found; nil when none.
	steadyWindow *steadyWindow
	// phases judges a phased plan's phases; nil for other runs.
	phases *phaseTally
	// shed checks the shed order; nil without critical objectives.
	shed *shedTally
}

// newScoreTally starts a tally; keep says whether to keep every raw sample
// in the Report (the in-memory scorer does).
func newScoreTally(set scoreSetup, keep bool) *scoreTally {
	r := &report.Report{
		Schema:                 report.ReportSchema,
		WilsonConfidence:       set.confidence,
		StatusCounts:           make(map[record.Status]int, len(record.Statuses())),
		ReasonCounts:           make(map[report.Reason]int, len(report.Reasons())),
		WindowMS:               set.window,
		ScheduleLagToleranceMS: set.tolerance,
		InvalidReasons:         []string{},
		SLO:                    set.slo,
		PercentileMethod:       set.method,
	}
	if set.api != nil {
		r.Endpoint = set.api.Endpoint
	}
	for _, s := range record.Statuses() {
		r.StatusCounts[s] = 0
	}
	for _, reason := range report.Reasons() {
		r.ReasonCounts[reason] = 0
	}
	t := &scoreTally{set: set, r: r, pop: newPopulations(keep), lastTerminal: math.Inf(-1),
		unqualified: newUnqualifiedTally(),
		limits: sloLimits{
			ttft: sloLimitMS(set.slo.TTFT), tpot: sloLimitMS(set.slo.TPOT), e2e: sloLimitMS(set.slo.E2E),
			fromScheduled: set.slo.TTFTFromScheduled,
		}}
	t.breakdown = newBreakdownTally(func() (ttft, tpot, e2e *population) {
		t.pop.flush()
		return t.pop.pops[popTTFT], t.pop.pops[popTPOT], t.pop.pops[popE2E]
	})
	t.backlog.start(set.window)
	t.shed = newShedTally(set.critical)
	if set.driftMS > 0 {
		t.drift = newDriftTally(set.window, set.driftMS)
	}
	return t
}

// runShape is what the tally needs to know of the schedule's shape.
type runShape struct {
	// sessionLength counts a conversation's entries from its first turn;
	// nil when the schedule has no conversation.
	sessionLength func(first int) int
	// closed is true for a closed-loop run.
	closed bool
	// truncated lists the sessions (by first turn) of the truncated turns
	// outside the window, for a scorer that collected them first.
	truncated []int
	// phases is the arrival plan's phases; nil when it has none.
	phases []schedule.Phase
}

// shape turns on the session and steady-state tallies the run's shape
// calls for: sessions for conversations, the steady state for those and
// for closed loops. The steady window needs a second look at the records
// (steadyWindow.add) once finish has found it.
func (t *scoreTally) shape(s runShape) {
	t.sessions = newSessionTally(s.sessionLength)
	t.steady.enabled, t.steady.closed = s.closed || s.sessionLength != nil, s.closed
	for _, first := range s.truncated {
		t.sessions.markTruncated(first)
	}
	t.phases = newPhaseTally(s.phases, t.set.slo.TTFTFromScheduled)
}

// add scores one record into rs.
func (t *scoreTally) add(rec *scoreRecord, rs *report.RequestScore) {
	r := t.r
	r.Offered++
	rs.ID, rs.Class, rs.Backend, rs.Adapter, rs.Status = rec.id, rec.class, rec.backend, rec.adapter, rec.status
	rs.Turn = rec.turn
	rs.Tenant, rs.Objective = rec.tenant, rec.objective
	rs.Modality = rec.modality
	rs.CachedFraction = report.CachedFractionOf(rec.cachedTokens, rec.inputTokens)
	rs.ScheduledMS = rec.scheduled
	rs.SentMS = rec.sent
	rs.OutputTokens = rec.outputTokens
	rs.Quality = rec.quality.String()
	rs.QualityEvidence = rec.qualityEvidence
	rs.Error = rec.errMsg
	t.errors.Add(rec.status, rec.errMsg)
	r.StatusCounts[rec.status]++
	success := rec.status == record.StatusSuccess
	t.tallyQuality(rec, success)
	if rec.hasTerminal {
		t.lastTerminal = max(t.lastTerminal, rec.terminal)
	} else {
		t.notRecorded++
	}
	switch {
	case rec.stopped:
		r.StoppedTurns++
	case rec.status == record.StatusNotSent:
		t.unsent++
	case rec.sent == nil && rec.hasTerminal:
		t.neverReached++
	}
	t.backlog.add(rec, t.pop.earlyDuration)

	m := measureRecord(rec)
	t.putMeasures(rec, &m, rs)
	if t.drift != nil {
		t.drift.add(rec, &m)
	}
	var none unmeasured
	rs.Reasons, none = judgeRecord(rec, &m, t.limits, &t.reasons)
	t.unqualified.add(rec, &m, t.limits, rs.Reasons, none)
	rs.Qualified = len(rs.Reasons) == 0
	if rs.Qualified {
		r.Qualified++
	}
	for _, reason := range rs.Reasons {
		r.ReasonCounts[reason]++
	}
	t.breakdown.add(rs)
	t.phases.add(rs)
	t.shed.add(rs)
	t.sessions.add(rec, rs.Qualified)
	t.steady.add(rec)
	if !success {
		return
	}
	r.ProtocolSuccesses++
	t.throughput.add(rec)
	t.prefixCache.add(rec)
	t.pop.addSuccess(rec, &m)
	if t.set.fluidity != nil {
		if fr, ok := fluidityOf(*t.set.fluidity, rec); ok {
			missed := fr.missed
			rs.FluidityMisses = &missed
			t.flu.add(fr)
		}
	}
}

// tallyQuality counts a record's quality judgment.
func (t *scoreTally) tallyQuality(rec *scoreRecord, success bool) {
	q := &t.r.Quality
	switch rec.quality {
	case qualityPass:
		q.Judged++
		q.Passed++
	case qualityFail:
		q.Judged++
		q.Failed++
	default:
		q.Unscored++
	}
	if success && rec.quality != qualityUnscored {
		t.judgedSuccesses++
	}
}

// putMeasures copies a record's derived times into its entry and counts
// the ones every sent request contributes (schedule lag, client queue).
func (t *scoreTally) putMeasures(rec *scoreRecord, m *requestMeasures, rs *report.RequestScore) {
	r := t.r
	put := t.floats.put
	if rec.sent != nil {
		rs.ScheduleLagMS = put(m.lag)
		t.pop.add(popScheduleLag, m.lag)
		if m.lag > t.set.tolerance {
			r.LateCount++
		}
		if r.MaxScheduleLagMS == nil || m.lag > *r.MaxScheduleLagMS {
			r.MaxScheduleLagMS = new(m.lag)
		}
	}
	if rec.slot != nil {
		t.pop.add(popClientQueue, m.clientQueue)
	}
	if m.hasContent {
		rs.TTFTMS = put(m.ttft)
		rs.TTFTFromScheduledMS = put(m.ttftFromScheduled)
		rs.LastTokenMS = put(m.lastToken)
	}
	if m.hasTPOT {
		rs.TPOTMS = put(m.tpot)
	}
	if m.hasE2E {
		rs.E2EMS = put(m.e2e)
	}
	if m.hasMaxGap {
		rs.MaxGapMS = put(m.maxGap)
	}
}

// finish completes the Report: rates, validity, backlog, fluidity and the
// distributions. It fails only when a population's temporary file does.
func (t *scoreTally) finish() (*report.Report, error) {
	r, set := t.r, t.set
	n := r.Offered
	r.AttainmentKind = attainmentKind(t.judgedSuccesses, r.ProtocolSuccesses)
	if n > 0 {
		r.Attainment = new(float64(r.Qualified) / float64(n))
		if lo, ok := stats.WilsonLower(r.Qualified, n, set.confidence); ok {
			r.WilsonLower = new(lo)
		}
	}
	windowMS := set.window[1] - set.window[0]
	r.HorizonMS = windowMS
	if t.lastTerminal > set.window[1] {
		r.HorizonMS = t.lastTerminal - set.window[0]
	}
	r.OfferedRPS = new(float64(n) / (windowMS / 1000))
	r.SuccessfulRPS = new(float64(r.ProtocolSuccesses) / (r.HorizonMS / 1000))
	r.QualifiedRPS = new(float64(r.Qualified) / (r.HorizonMS / 1000))
	r.Throughput = t.throughput.rates(set.api, r.ProtocolSuccesses, r.HorizonMS)
	r.OutputTokens, r.OutputTokensUnknown = int64(t.throughput.output), r.ProtocolSuccesses-t.throughput.outputReported
	r.PrefixCache = t.prefixCache.report()
	r.Sessions = t.sessions.report(set.confidence)
	t.steadyWindow = t.steady.window()
	r.Phases, r.Recovery, r.RecoveryMS = t.phases.report(set.method, t.limits.ttft)
	r.ShedOrder = t.shed.report()

	if t.notRecorded > 0 {
		r.InvalidReasons = append(r.InvalidReasons, fmt.Sprintf(
			"%d of %d offered requests have no outcome record (the run was interrupted?) and count as not_sent", t.notRecorded, n))
	}
	if t.unsent > 0 {
		r.InvalidReasons = append(r.InvalidReasons, fmt.Sprintf("%d of %d offered requests were not sent", t.unsent, n))
	}
	if t.neverReached > 0 {
		r.InvalidReasons = append(r.InvalidReasons, fmt.Sprintf(
			"%d of %d offered requests never reached the engine (no connection was obtained: sent_ms is null) and were not delivered load", t.neverReached, n))
	}
	if r.LateCount > 0 {
		r.InvalidReasons = append(r.InvalidReasons, fmt.Sprintf(
			"%d of %d offered requests were sent more than %s ms after their scheduled time (max schedule lag %s ms)",
			r.LateCount, n, numfmt.Compact(set.tolerance), numfmt.Compact(*r.MaxScheduleLagMS)))
	}
	r.Valid = len(r.InvalidReasons) == 0
	r.UnmeasurableCounts, r.FirstUnqualified = t.unqualified.unmeasurable, t.unqualified.list()
	r.ErrorMessages = t.errors.Result()
	b, err := t.backlog.report(t.pop.earlyDuration)
	if err != nil {
		t.pop.close()
		return nil, err
	}
	r.Backlog = b
	if set.fluidity != nil {
		r.Fluidity = t.flu.report(*set.fluidity)
	}
	if t.drift != nil {
		r.Drift = t.drift.report(set.confidence)
	}
	if r.Breakdown, err = t.breakdown.report(set.method, set.levels); err != nil {
		t.pop.close()
		return nil, err
	}
	samples, dists, err := t.pop.summarize(set.method, set.levels, n, r.ProtocolSuccesses, set.defines)
	if err != nil {
		return nil, err
	}
	r.Samples, r.Percentiles = samples, dists
	return r, nil
}

// floatArena carves the per-request floats out of shared chunks: a million
// requests cost a few thousand allocations rather than seven million.
type floatArena struct{ free []float64 }

// put returns a pointer to a copy of v.
func (a *floatArena) put(v float64) *float64 {
	if len(a.free) == cap(a.free) {
		a.free = make([]float64, 0, 4096)
	}
	a.free = append(a.free, v)
	return &a.free[len(a.free)-1]
}
