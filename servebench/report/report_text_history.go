package report

import "github.com/servebench/servebench/servebench/schedule"

// writeHistoryText says what the later turns of conversations carried and
// totals the prompt tokens sent.
func writeHistoryText(line func(label, format string, args ...any), g *GeneratorReport) {
	switch g.History {
	case schedule.HistoryEngine:
		line("History", "engine: later turns carry the engine's own answers, so the prompts sent differ from run to run")
	case schedule.HistoryWorkload:
		line("History", "workload: later turns carry the workload's messages as written")
	}
	if p := g.PromptTokensSent; p != nil {
		line("Prompt tokens sent", "%d (as the engine reported them, for %d of %d requests sent)", p.Total, p.Reported, p.Sent)
	}
}
