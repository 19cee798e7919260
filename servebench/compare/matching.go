package compare

import (
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"

	"github.com/servebench/servebench/servebench/report"
	"github.com/servebench/servebench/servebench/schedule"
)

// runField is one property two runs must share to be compared: its name
// as messages give it, and its value on a run ("" when the run does not
// record it).
type runField struct {
	name  string
	value func(r *report.Report) string
	// optional fields are compared only when both runs record them.
	optional bool
}

// sideFields must be the same on every run of both sides.
var sideFields = []runField{
	{name: "workload", value: func(r *report.Report) string { return r.Inputs.WorkloadSHA256 }},
	{name: "SLO", value: func(r *report.Report) string { b, _ := json.Marshal(r.SLO); return string(b) }},
	{name: "history", value: historyMode, optional: true},
	{name: "cache state", value: cacheState},
}

// cacheState is the prefix-cache state a run started from: "reset" or
// "uncontrolled" (also for a run recorded before the field existed, which
// did not control it).
func cacheState(r *report.Report) string {
	if r.CacheState == "" {
		return report.CacheStateUncontrolled
	}
	return r.CacheState
}

// historyMode is what a run's conversations carried as earlier answers
// (generator.history): a run recorded before the field existed sent the
// workload's messages; "" when the report has no generator record.
func historyMode(r *report.Report) string {
	if r.Generator == nil {
		return ""
	}
	if r.Generator.History == "" {
		return string(schedule.TurnHistoryWorkload)
	}
	return string(r.Generator.History)
}

// differs says whether a field's values on two runs differ; an optional
// field that one of them does not record does not.
func (f runField) differs(a, b string) bool {
	if f.optional && (a == "" || b == "") {
		return false
	}
	return a != b
}

// roundFields must be the same on round K of both sides: the two runs of
// a round replay one realized schedule.
var roundFields = []runField{
	{name: "schedule hash", value: scheduleHash},
	{name: "request count", value: func(r *report.Report) string { return strconv.Itoa(r.Offered) }},
	{name: "arrival process", value: arrivalField(func(a schedule.ArrivalSpec) string { return string(a.Process) })},
	{name: "rate", value: arrivalField(func(a schedule.ArrivalSpec) string { return strconv.FormatFloat(a.RateRPS, 'g', -1, 64) })},
	{name: "seed", value: arrivalField(func(a schedule.ArrivalSpec) string { return strconv.FormatInt(a.Seed, 10) })},
}

// scheduleHash is the SHA-256 of the realized schedule a run replayed: each
// offered request's ID and scheduled time, in schedule order (by time,
// then ID; a run's requests.jsonl lists them in the order they ended). The
// schedule file's own hash (Inputs.ScheduleSHA256) also covers the run's
// ID, so it differs between any two runs. "" when the report holds no
// request entries.
func scheduleHash(r *report.Report) string {
	type entry struct {
		id        string
		scheduled float64
	}
	var entries []entry
	err := r.EachRequest(func(q *report.RequestScore) error {
		entries = append(entries, entry{q.ID, q.ScheduledMS})
		return nil
	})
	switch {
	case err != nil:
		return "unreadable request entries (" + err.Error() + ")"
	case len(entries) == 0:
		return ""
	}
	slices.SortFunc(entries, func(a, b entry) int { return cmp.Or(cmp.Compare(a.scheduled, b.scheduled), cmp.Compare(a.id, b.id)) })
	h := sha256.New()
	for _, e := range entries {
		fmt.Fprintf(h, "%s\t%s\n", e.id, strconv.FormatFloat(e.scheduled, 'f', 3, 64))
	}
	return hex.EncodeToString(h.Sum(nil))
}

// arrivalField reads one property of a run's arrival process; "" when the
// run does not record its experiment.
func arrivalField(get func(schedule.ArrivalSpec) string) func(*report.Report) string {
	return func(r *report.Report) string {
		if r.Experiment == nil {
			return ""
		}
		return get(r.Experiment.Arrival)
	}
}

// checkMatchingRuns refuses runs that did not measure the same thing: a
// workload or SLO that differs from the first baseline run's, or a round
// whose two sides ran different schedules (schedule hash, request count,
// arrival process, rate or seed). With allow, it records each difference
// instead. A property neither run of a pair records is not compared, nor
// the history mode when one of them does not record it.
func (c *Comparison) checkMatchingRuns(allow bool) error {
	var diffs []string
	first := c.baseline[0]
	for side, reports := range map[string][]*report.Report{"baseline": c.baseline, "candidate": c.candidate} {
		for i, r := range reports {
			for _, f := range sideFields {
				if a, b := f.value(r), f.value(first); f.differs(a, b) {
					diffs = append(diffs, fmt.Sprintf("%s round %d: %s %s differs from the first baseline run's %s", side, i+1, f.name, short(a), short(b)))
				}
			}
		}
	}
	for i := range min(len(c.baseline), len(c.candidate)) {
		b, cand := c.baseline[i], c.candidate[i]
		for _, f := range roundFields {
			bv, cv := f.value(b), f.value(cand)
			if f.differs(bv, cv) {
				diffs = append(diffs, fmt.Sprintf("round %d: the %s differs: baseline %s, candidate %s", i+1, f.name, orNone(bv), orNone(cv)))
			}
		}
	}
	slices.Sort(diffs)
	if len(diffs) == 0 {
		return nil
	}
	if !allow {
		return fmt.Errorf("compare: the two sides did not run the same workload and schedule: %s (pass --allow-different-workloads to compare anyway)", diffs[0])
	}
	c.AllowedDifferences = diffs
	return nil
}

// short abbreviates a hash for messages; other values pass unchanged.
func short(s string) string {
	if len(s) == 64 {
		return s[:12]
	}
	return s
}

// orNone names an unrecorded property.
func orNone(s string) string {
	if s == "" {
		return "(not recorded)"
	}
	return short(s)
}
