package render

import (
	"fmt"

	"github.com/servebench/servebench/servebench/report"
	"github.com/servebench/servebench/servebench/schedule"
)

// historyLines say what the later turns of conversations carried and total
// the prompt tokens sent, as label and value, for the text and HTML
// reports.
func historyLines(g *report.GeneratorReport) [][2]string {
	var lines [][2]string
	switch g.History {
	case schedule.TurnHistoryEngine:
		lines = append(lines, [2]string{"History", "engine: later turns carry the engine's own answers, so the prompts sent differ from run to run"})
	case schedule.TurnHistoryWorkload:
		lines = append(lines, [2]string{"History", "workload: later turns carry the workload's messages as written"})
	}
	if p := g.PromptTokensSent; p != nil {
		lines = append(lines, [2]string{"Prompt tokens sent", fmt.Sprintf("%d (as the engine reported them, for %d of %d requests sent)", p.Total, p.Reported, p.Sent)})
	}
	return lines
}

// writeHistoryText adds the history lines to the text report.
func writeHistoryText(line func(label, format string, args ...any), g *report.GeneratorReport) {
	for _, l := range historyLines(g) {
		line(l[0], "%s", l[1])
	}
}

// carriedHistoryText notes the later turns the prompt-token audit left out;
// "" when it left none out.
func carriedHistoryText(a *report.PromptTokenAudit) string {
	if a.CarriedHistory == 0 {
		return ""
	}
	return fmt.Sprintf("; %d later turns carrying earlier answers left out", a.CarriedHistory)
}
