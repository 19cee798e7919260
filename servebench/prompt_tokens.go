package servebench

import (
	"fmt"
	"math"
)

// PromptTokenTolerance is the relative difference between the prompt length
// a workload intended and the length the engine reported beyond which a
// request is flagged. Chat templates and special tokens add a few tokens.
const PromptTokenTolerance = 0.10

// PromptTokenCheck compares each request's intended prompt length (the
// workload's prompt_tokens, under the workload's tokenizer) with the
// engine's usage.prompt_tokens.
type PromptTokenCheck struct {
	// Compared counts requests that had both numbers.
	Compared int `json:"compared"`
	// Mismatched counts those differing by more than Tolerance (relative).
	Mismatched int `json:"mismatched"`
	// Tolerance is the relative tolerance applied.
	Tolerance float64 `json:"tolerance"`
	// MeanDifference is the mean of reported - intended over compared
	// requests: a steady positive value is template overhead.
	MeanDifference *float64 `json:"mean_difference"`
	// Examples lists a few mismatches.
	Examples []string `json:"examples,omitempty"`
}

// checkPromptTokens compares intended and reported prompt lengths; nil when
// no request had both.
func checkPromptTokens(w *Workload, s *Schedule, outcomes []Outcome) *PromptTokenCheck {
	byID := make(map[string]*ScheduleEntry, len(s.Entries))
	for i := range s.Entries {
		byID[s.Entries[i].ID] = &s.Entries[i]
	}
	c := &PromptTokenCheck{Tolerance: PromptTokenTolerance}
	sum := 0.0
	for _, o := range outcomes {
		e, ok := byID[o.ID]
		if !ok || o.PromptTokens == nil {
			continue
		}
		want := w.Requests[e.Row].PromptTokens
		if want == nil {
			continue
		}
		c.Compared++
		diff := *o.PromptTokens - *want
		sum += float64(diff)
		if math.Abs(float64(diff)) > PromptTokenTolerance*float64(max(*want, 1)) {
			c.Mismatched++
			if len(c.Examples) < 5 {
				c.Examples = append(c.Examples, fmt.Sprintf("%s: intended %d, engine reported %d", o.ID, *want, *o.PromptTokens))
			}
		}
	}
	if c.Compared == 0 {
		return nil
	}
	c.MeanDifference = ptr(sum / float64(c.Compared))
	return c
}
