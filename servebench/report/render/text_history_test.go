package render

import (
	"bytes"
	"regexp"
	"strings"
	"testing"

	"github.com/servebench/servebench/servebench/report"
	"github.com/servebench/servebench/servebench/schedule"
)

// TestTextReportGivesHistoryAndTurnsInOrder: the generator section says
// the history mode and the prompt tokens sent, and the turn breakdown
// lists turns 1, 2, 10 in numeric order.
func TestTextReportGivesHistoryAndTurnsInOrder(t *testing.T) {
	r := &report.Report{
		Generator: &report.GeneratorReport{Mode: schedule.ModeOpen, Sent: 5, Scheduled: 6, History: schedule.TurnHistoryEngine,
			PromptTokensSent: &report.PromptTokensSent{Total: 1234, Reported: 4, Sent: 5}},
		Breakdown: map[string]*report.BreakdownDimension{"turn": {Values: map[string]report.BreakdownValue{
			"10": {Offered: 1}, "2": {Offered: 2}, "1": {Offered: 3},
		}}},
	}
	var b bytes.Buffer
	if err := Text(&b, r); err != nil {
		t.Fatal(err)
	}
	text := b.String()
	for _, want := range []string{
		"engine: later turns carry the engine's own answers, so the prompts sent differ from run to run",
		"1234 (as the engine reported them, for 4 of 5 requests sent)",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("the text report lacks %q:\n%s", want, text)
		}
	}
	rows := regexp.MustCompile(`(?m)^(1|2|10) +(\d) `).FindAllStringSubmatch(text, -1)
	var order []string
	for _, m := range rows {
		order = append(order, m[1]+"="+m[2])
	}
	if got := strings.Join(order, " "); got != "1=3 2=2 10=1" {
		t.Errorf("turn rows %q, want 1=3 2=2 10=1", got)
	}
}

// TestHTMLReportGivesHistory: the HTML report's delivery fields carry the
// same history lines, and the prompt-token check says how many later turns
// it left out.
func TestHTMLReportGivesHistory(t *testing.T) {
	r := &report.Report{
		Generator: &report.GeneratorReport{Mode: schedule.ModeOpen, History: schedule.TurnHistoryWorkload,
			PromptTokensSent: &report.PromptTokensSent{Total: 77, Reported: 2, Sent: 2}},
		PromptTokens: &report.PromptTokenAudit{Compared: 2, CarriedHistory: 3},
	}
	var b bytes.Buffer
	if err := HTML(&b, r); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"workload: later turns carry the workload&#39;s messages as written",
		"77 (as the engine reported them, for 2 of 2 requests sent)",
		"; 3 later turns carrying earlier answers left out",
	} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("the HTML report lacks %q", want)
		}
	}
}
