package capacity

import (
	"fmt"
	"slices"
)

// ConcurrencySelection is the SLO concurrency a user search supports: the
// highest tested number of closed-loop users whose attainment meets the
// rule with no request unsent. It is a number of users, never a capacity
// in requests per second.
type ConcurrencySelection struct {
	// Users is the highest passing tested number of users; nil when none
	// passed.
	Users *int `json:"users"`
	// Label says what Users is.
	Label string `json:"label"`
	// FailingNeighborUsers is the lowest tested number above Users that did
	// not pass; nil when there is none.
	FailingNeighborUsers *int `json:"failing_neighbor_users"`
	// Verdicts has one entry per point, in the order of the points.
	Verdicts []PointVerdict `json:"verdicts"`
	// Monotonic is false when fewer users than Users did not pass.
	Monotonic bool `json:"monotonic"`
	// Notes warns about what the selection cannot show.
	Notes []string `json:"notes,omitempty"`
}

// The labels of a ConcurrencySelection.
const (
	ConcurrencyLabelHighestPassing = "SLO concurrency: highest passing tested number of closed-loop users"
	ConcurrencyLabelNonePassed     = "no tested number of users passed"
)

// SelectConcurrency judges the points of a user search by rule and selects
// the SLO concurrency. A number of users tested more than once passes only
// when every run at it passed. The backlog rule does not apply to a closed
// loop; validity is that no request went unsent.
func SelectConcurrency(points []Point, rule Rule) ConcurrencySelection {
	rule = rule.withDefaults()
	sel := ConcurrencySelection{Label: ConcurrencyLabelNonePassed, Verdicts: make([]PointVerdict, 0, len(points)), Monotonic: true}
	for _, p := range points {
		sel.Verdicts = append(sel.Verdicts, judgePoint(p, rule))
	}
	verdicts := UserVerdicts(sel.Verdicts)
	levels := make([]int, 0, len(verdicts))
	for u, v := range verdicts {
		if v == VerdictInterrupted {
			continue // nothing is derived from an interrupted point
		}
		levels = append(levels, u)
	}
	slices.Sort(levels)
	best := -1
	for i, u := range levels {
		if verdicts[u] == VerdictPass {
			best = i
		}
	}
	if best < 0 {
		if len(levels) > 0 {
			sel.Notes = append(sel.Notes, fmt.Sprintf("even the fewest users tested (%d) did not pass", levels[0]))
		}
		return sel
	}
	sel.Users, sel.Label = new(levels[best]), ConcurrencyLabelHighestPassing
	for _, u := range levels[best+1:] {
		if verdicts[u] != VerdictPass {
			sel.FailingNeighborUsers = new(u)
			break
		}
	}
	if sel.FailingNeighborUsers == nil {
		sel.Notes = append(sel.Notes, "the most users tested passed: the boundary lies above the tested range")
	}
	for _, u := range levels[:best] {
		if verdicts[u] != VerdictPass {
			sel.Monotonic = false
			sel.Notes = append(sel.Notes, fmt.Sprintf("fewer users (%d) did not pass while %d passed: the results are not monotonic", u, levels[best]))
			break
		}
	}
	return sel
}
