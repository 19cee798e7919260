package servebench

import (
	"fmt"

	"github.com/servebench/servebench/servebench/schedule"

	"github.com/servebench/servebench/servebench/record"
)

// OutputLengthCheck verifies the rows that force their output length
// (ignore_eos): whether the engine could be asked to honour it at all, and
// whether the successful responses really came back at max_tokens.
type OutputLengthCheck struct {
	// Forced counts scheduled requests whose row sets ignore_eos.
	Forced int `json:"forced"`
	// NotEnforceable counts those sent to an engine that ignores the
	// request (its length control is "unsupported"): their lengths are
	// natural, whatever the workload declared.
	NotEnforceable int `json:"not_enforceable"`
	// ShortOfMaxTokens counts successful forced requests whose output
	// token count was below max_tokens; Unknown counts those whose count
	// was unknown.
	ShortOfMaxTokens int `json:"short_of_max_tokens"`
	Unknown          int `json:"unknown"`
	// Examples lists a few short responses.
	Examples []string `json:"examples,omitempty"`
}

// checkOutputLengths builds the check; nil when no row forced a length.
func checkOutputLengths(s *schedule.Schedule, outcomes []record.Outcome) *OutputLengthCheck {
	byID := make(map[string]*schedule.Entry, len(s.Entries))
	for i := range s.Entries {
		byID[s.Entries[i].ID] = &s.Entries[i]
	}
	c := &OutputLengthCheck{}
	for i := range outcomes {
		o := &outcomes[i]
		e, ok := byID[o.ID]
		if !ok || !e.IgnoreEOS {
			continue
		}
		c.Forced++
		if o.LengthEnforced != nil && !*o.LengthEnforced {
			c.NotEnforceable++
		}
		if o.Status != record.StatusSuccess {
			continue
		}
		switch {
		case o.OutputTokens == nil:
			c.Unknown++
		case *o.OutputTokens < e.MaxTokens:
			c.ShortOfMaxTokens++
			if len(c.Examples) < 5 {
				c.Examples = append(c.Examples, fmt.Sprintf("%s: %d of max_tokens %d", o.ID, *o.OutputTokens, e.MaxTokens))
			}
		}
	}
	if c.Forced == 0 {
		return nil
	}
	return c
}
