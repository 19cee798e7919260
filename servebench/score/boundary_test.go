package score

import (
	"fmt"
	"slices"
	"testing"

	"github.com/servebench/servebench/servebench/report"
)

// TestSLOBoundaryQualifies pins the comparison of every objective: a value
// equal to the bound attains it, and one microsecond more (the records'
// resolution) fails it. Changing any `>` in judgeRecord to `>=`, or the
// reverse, fails one of these cases.
func TestSLOBoundaryQualifies(t *testing.T) {
	// Bounds: TTFT 300 ms, TPOT 80 ms, E2E 3000 ms. Each request is sent at
	// its scheduled time (no lag), so f − d and f − a agree unless a case
	// says otherwise.
	cases := []struct {
		name          string
		slo           string
		scheduled     float64
		sent          float64
		terminal      float64
		tokens        string
		wantQualified bool
		wantReason    report.Reason
	}{
		{name: "ttft at the bound", slo: `"ttft_ms": 300`, sent: 0, terminal: 400, tokens: "300, 350", wantQualified: true},
		{name: "ttft 1 µs above", slo: `"ttft_ms": 300`, sent: 0, terminal: 400, tokens: "300.001, 350", wantReason: report.ReasonTTFT},
		// From the scheduled time: a = 0, d = 50, f = 300 gives f − a = 300.
		{name: "ttft from scheduled at the bound", slo: `"ttft_ms": 300, "ttft_from_scheduled": true`, sent: 50, terminal: 400, tokens: "300, 350", wantQualified: true},
		{name: "ttft from scheduled 1 µs above", slo: `"ttft_ms": 300, "ttft_from_scheduled": true`, sent: 50, terminal: 400, tokens: "300.001, 350", wantReason: report.ReasonTTFT},
		// TPOT = (l − f)/(n − 1): 4 tokens from 100 to 340 is 240 / 3 = 80.
		{name: "tpot at the bound", slo: `"tpot_ms": 80`, sent: 0, terminal: 400, tokens: "100, 180, 260, 340", wantQualified: true},
		// (340.003 − 100) / 3 = 80.001.
		{name: "tpot 1 µs above", slo: `"tpot_ms": 80`, sent: 0, terminal: 400, tokens: "100, 180, 260, 340.003", wantReason: report.ReasonTPOT},
		{name: "e2e at the bound", slo: `"e2e_ms": 3000`, sent: 0, terminal: 3000, tokens: "100, 200", wantQualified: true},
		{name: "e2e 1 µs above", slo: `"e2e_ms": 3000`, sent: 0, terminal: 3000.001, tokens: "100, 200", wantReason: report.ReasonE2E},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			trace := fmt.Sprintf(`{"window_ms": [0, 1000], "slo": {%s}, "requests": [{"id": "r1", "scheduled_ms": %v}]}`, c.slo, c.scheduled)
			events := fmt.Sprintf(`{"id": "r1", "sent_ms": %v, "terminal_ms": %v, "token_ms": [%s], "status": "success", "quality_pass": true}`,
				c.sent, c.terminal, c.tokens)
			r, err := Trace("trace.json", []byte(trace), "events.jsonl", []byte(events), Options{})
			if err != nil {
				t.Fatal(err)
			}
			got := r.Requests[0]
			if got.Qualified != c.wantQualified {
				t.Fatalf("qualified = %v, want %v (reasons %v)", got.Qualified, c.wantQualified, got.Reasons)
			}
			if !c.wantQualified && !slices.Equal(got.Reasons, []report.Reason{c.wantReason}) {
				t.Fatalf("reasons = %v, want [%s]", got.Reasons, c.wantReason)
			}
		})
	}
}
