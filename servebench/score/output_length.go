package score

import (
	"fmt"

	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/servebench/report"
	"github.com/servebench/servebench/servebench/schedule"
)

// CheckOutputLengths builds the check; nil when no row forced a length.
func CheckOutputLengths(s *schedule.Schedule, outcomes []record.Outcome) *report.OutputLengthCheck {
	byID := make(map[string]*schedule.Entry, len(s.Entries))
	for i := range s.Entries {
		byID[s.Entries[i].ID] = &s.Entries[i]
	}
	c := &report.OutputLengthCheck{}
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
