package servebench

import (
	"sync/atomic"

	"github.com/servebench/servebench/servebench/report"
)

// promptTokenTotal totals, as requests are sent, the prompt tokens the
// engine reported in usage, and counts the requests sent and those that
// reported it.
type promptTokenTotal struct {
	tokens, reported, sent atomic.Int64
}

// add counts one request sent; n is its usage.prompt_tokens, nil when the
// engine did not report it.
func (t *promptTokenTotal) add(n *int) {
	t.sent.Add(1)
	if n != nil {
		t.reported.Add(1)
		t.tokens.Add(int64(*n))
	}
}

// report is the total for the generator report; nil when nothing was sent.
func (t *promptTokenTotal) report() *report.PromptTokensSent {
	sent := t.sent.Load()
	if sent == 0 {
		return nil
	}
	return &report.PromptTokensSent{Total: t.tokens.Load(), Reported: int(t.reported.Load()), Sent: int(sent)}
}
