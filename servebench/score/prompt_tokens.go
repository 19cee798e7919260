package score

import (
	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/servebench/report"
	"github.com/servebench/servebench/servebench/schedule"
)

// CheckPromptTokens audits every outcome whose workload row declared its
// prompt length; nil when no row did. A later turn of a conversation whose
// row carries assistant messages is left out and counted apart
// (CarriedHistory): under engine history, the default, those messages are
// replaced by the engine's own answers, so the row's intended length is
// not the length sent.
func CheckPromptTokens(w *schedule.Workload, s *schedule.Schedule, outcomes []record.Outcome) *report.PromptTokenAudit {
	rows := make(map[string]int, len(s.Entries))
	later := map[string]bool{}
	for _, e := range s.Entries {
		rows[e.ID] = e.Row
		if e.DependsOn != "" {
			later[e.ID] = true
		}
	}
	a := &report.PromptTokenAudit{Tolerance: report.DefaultPromptTokenTolerance}
	for i := range outcomes {
		o := &outcomes[i]
		row, ok := rows[o.ID]
		if !ok || o.Status == record.StatusNotSent {
			continue
		}
		req := &w.Requests[row]
		if later[o.ID] && req.PromptTokens != nil && carriesAnswers(req) {
			a.CarriedHistory++
			continue
		}
		a.Add(o.ID, req.PromptTokens, o.PromptTokens)
	}
	if a.Compared == 0 && a.Unreported == 0 && a.CarriedHistory == 0 {
		return nil
	}
	return a
}

// carriesAnswers says whether a row's messages hold an assistant message.
func carriesAnswers(r *record.Request) bool {
	for _, m := range r.Messages {
		if m.Role == "assistant" {
			return true
		}
	}
	return false
}
