package score

import (
	"fmt"

	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/servebench/report"
	"github.com/servebench/servebench/servebench/schedule"
)

// auditTally runs the two checks of what the engine was asked against
// what it did, one outcome record (every attempt) at a time, so that the
// streamed scorer keeps them: the prompt-token audit (the row's declared
// prompt length against usage.prompt_tokens) and the output-length check
// (rows that force their length with ignore_eos).
type auditTally struct {
	prompt report.PromptTokenAudit
	output report.OutputLengthCheck
}

func newAuditTally() *auditTally {
	return &auditTally{prompt: report.PromptTokenAudit{Tolerance: report.DefaultPromptTokenTolerance}}
}

// add audits one outcome record against its schedule entry's fields.
func (a *auditTally) add(o *record.Outcome, e schedule.AuditedEntry) {
	switch {
	case e.PromptTokens < 0 || o.Status == record.StatusNotSent:
	case e.CarriedHistory:
		a.prompt.CarriedHistory++
	default:
		requested := int(e.PromptTokens)
		a.prompt.Add(o.ID, &requested, o.PromptTokens)
	}
	if e.ForcedMaxTokens == 0 {
		return
	}
	c := &a.output
	c.Forced++
	if o.LengthEnforced != nil && !*o.LengthEnforced {
		c.NotEnforceable++
	}
	if o.Status != record.StatusSuccess {
		return
	}
	switch max := int(e.ForcedMaxTokens); {
	case o.OutputTokens == nil:
		c.Unknown++
	case *o.OutputTokens < max:
		c.ShortOfMaxTokens++
		if len(c.Examples) < 5 {
			c.Examples = append(c.Examples, fmt.Sprintf("%s: %d of max_tokens %d", o.ID, *o.OutputTokens, max))
		}
	}
}

// finish puts the checks that had anything to check into rep.
func (a *auditTally) finish(rep *report.Report) {
	if a.prompt.Compared > 0 || a.prompt.Unreported > 0 || a.prompt.CarriedHistory > 0 {
		rep.PromptTokens = &a.prompt
	}
	if a.output.Forced > 0 {
		rep.OutputLengths = &a.output
	}
}

// auditedEntry is what the audits need of a schedule entry.
func auditedEntry(e *schedule.Entry) schedule.AuditedEntry {
	a := schedule.AuditedEntry{PromptTokens: -1}
	if e.IgnoreEOS {
		a.ForcedMaxTokens = int32(max(e.MaxTokens, 1))
	}
	if e.PromptTokens != nil {
		a.PromptTokens = int32(*e.PromptTokens)
	}
	a.CarriedHistory = e.CarriedHistory
	return a
}
