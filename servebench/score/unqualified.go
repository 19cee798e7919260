package score

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/servebench/servebench/internal/numfmt"
	"github.com/servebench/servebench/internal/oneline"
	"github.com/servebench/servebench/servebench/report"
)

// FirstUnqualifiedLimit is how many unqualified requests a Report lists in
// FirstUnqualified.
const FirstUnqualifiedLimit = 10

// latencyReasons are the criteria whose failure can be "above the
// objective" or "not measurable".
var latencyReasons = [...]report.Reason{report.ReasonTTFT, report.ReasonTPOT, report.ReasonE2E}

// unqualifiedTally keeps the first FirstUnqualifiedLimit unqualified
// requests by (scheduled time, ID), whatever order the records come in,
// and counts the latency failures that were not measurable.
type unqualifiedTally struct {
	first        []report.UnqualifiedRequest
	unmeasurable map[report.Reason]int
}

func newUnqualifiedTally() unqualifiedTally {
	u := unqualifiedTally{unmeasurable: make(map[report.Reason]int, len(latencyReasons))}
	for _, r := range latencyReasons {
		u.unmeasurable[r] = 0
	}
	return u
}

// add takes one judged record; reasons is empty for a qualified one.
func (u *unqualifiedTally) add(rec *scoreRecord, m *requestMeasures, lim sloLimits, reasons []report.Reason, none unmeasured) {
	if len(reasons) == 0 {
		return
	}
	for _, r := range reasons {
		if none.has(r) {
			u.unmeasurable[r]++
		}
	}
	key := report.UnqualifiedRequest{ID: rec.id, ScheduledMS: rec.scheduled}
	i, _ := slices.BinarySearchFunc(u.first, key, compareUnqualified)
	if i >= FirstUnqualifiedLimit {
		return
	}
	key.Reasons = slices.Clone(reasons)
	key.Explanation = explainUnqualified(rec, m, lim, reasons, none)
	u.first = slices.Insert(u.first, i, key)
	if len(u.first) > FirstUnqualifiedLimit {
		u.first = u.first[:FirstUnqualifiedLimit]
	}
}

// list is the kept requests, never nil.
func (u *unqualifiedTally) list() []report.UnqualifiedRequest {
	if u.first == nil {
		return []report.UnqualifiedRequest{}
	}
	return u.first
}

// compareUnqualified orders by scheduled time, then ID.
func compareUnqualified(a, b report.UnqualifiedRequest) int {
	return cmp.Or(cmp.Compare(a.ScheduledMS, b.ScheduledMS), strings.Compare(a.ID, b.ID))
}

// explainUnqualified says, for each failed criterion, what was measured
// against which bound.
func explainUnqualified(rec *scoreRecord, m *requestMeasures, lim sloLimits, reasons []report.Reason, none unmeasured) string {
	parts := make([]string, 0, len(reasons))
	for _, r := range reasons {
		parts = append(parts, explainReason(rec, m, lim, r, none.has(r)))
	}
	return strings.Join(parts, "; ")
}

// explainReason explains one failed criterion.
func explainReason(rec *scoreRecord, m *requestMeasures, lim sloLimits, r report.Reason, notMeasurable bool) string {
	switch r {
	case report.ReasonStatus:
		if rec.errMsg == "" {
			return "status " + string(rec.status)
		}
		return fmt.Sprintf("status %s: %s", rec.status, oneline.Shorten(rec.errMsg))
	case report.ReasonQuality:
		return "quality failed: " + numfmt.Or(rec.qualityEvidence)
	case report.ReasonTTFT:
		if notMeasurable {
			return "ttft not measurable: no content event"
		}
		v, from := m.ttft, "f − d"
		if lim.fromScheduled {
			v, from = m.ttftFromScheduled, "f − a"
		}
		return fmt.Sprintf("ttft %s ms (%s) above the objective %s ms", numfmt.Compact(v), from, numfmt.Compact(lim.ttft))
	case report.ReasonTPOT:
		if notMeasurable {
			return "tpot not measurable: " + whyNoTPOT(rec)
		}
		return fmt.Sprintf("tpot %s ms above the objective %s ms", numfmt.Compact(m.tpot), numfmt.Compact(lim.tpot))
	case report.ReasonE2E:
		if notMeasurable {
			return "e2e not measurable: no terminal time"
		}
		return fmt.Sprintf("e2e %s ms above the objective %s ms", numfmt.Compact(m.e2e), numfmt.Compact(lim.e2e))
	}
	return string(r)
}

// whyNoTPOT says why a response longer than one token (or of unknown
// length) has no TPOT.
func whyNoTPOT(rec *scoreRecord) string {
	events := len(rec.content)
	if rec.outputTokens == nil {
		return fmt.Sprintf("output length unknown (%s)", numfmt.Count(events, "content event", "content events"))
	}
	return fmt.Sprintf("%s in %s (TPOT needs at least two content events)",
		numfmt.Count(*rec.outputTokens, "token", "tokens"), numfmt.Count(events, "content event", "content events"))
}
