package score

import (
	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/servebench/report"
	"github.com/servebench/servebench/servebench/schedule"
)

// CheckPromptTokens audits every outcome whose workload row declared its
// prompt length; nil when no row did.
func CheckPromptTokens(w *schedule.Workload, s *schedule.Schedule, outcomes []record.Outcome) *report.PromptTokenAudit {
	rows := make(map[string]int, len(s.Entries))
	for _, e := range s.Entries {
		rows[e.ID] = e.Row
	}
	a := &report.PromptTokenAudit{Tolerance: report.DefaultPromptTokenTolerance}
	for i := range outcomes {
		o := &outcomes[i]
		row, ok := rows[o.ID]
		if !ok || o.Status == record.StatusNotSent {
			continue
		}
		a.Add(o.ID, w.Requests[row].PromptTokens, o.PromptTokens)
	}
	if a.Compared == 0 && a.Unreported == 0 {
		return nil
	}
	return a
}
