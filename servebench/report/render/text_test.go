package render_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/servebench/report"
	"github.com/servebench/servebench/servebench/report/render"
	"github.com/servebench/servebench/servebench/score"
)

// seedTrace and seedEvents are the scorer's seed run: six requests over a
// 2 s window, scored against TTFT <= 300 ms, TPOT <= 80 ms and E2E <= 3 s.
const (
	seedTrace  = "../../score/testdata/seed000/trace.json"
	seedEvents = "../../score/testdata/seed000/events.jsonl"
)

func TestTextShowsDenominators(t *testing.T) {
	r, err := score.TraceFiles(seedTrace, seedEvents)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := render.Text(&buf, r); err != nil {
		t.Fatal(err)
	}
	text := buf.String()
	for _, want := range []string{
		"6 (3.000 req/s = 6 / 2 s window)",
		"5 of 6 offered (83.3%)",
		"50.0% (3 / 6; performance+quality)",
		"Wilson lower bound (95%, 1-sided):   22.1%",
		"2.000 req/s (5 / 2.5 s horizon)",
		"1.200 req/s (3 / 2.5 s horizon)",
		"not estimated: one run is not a capacity",
		"ttft <= 300 ms (from send), tpot <= 80 ms (not applicable to one-token responses; a longer response without a TPOT, e.g. 2 tokens in one event, fails it), e2e <= 3000 ms",
		"timeout:                             1",
		"ttft:                                1",
		"yes: every offered request was sent within 20 ms of its schedule",
		"5 ms (tolerance 20 ms; 0 of 6 late)",
		// r05 (1201 ms) and r06 (1600 ms) are scheduled in the second half
		// of [0, 2000): margin max(2, 0.1 × 2) = 2.
		"2 at window midpoint, 1 at window end (not growing: end − midpoint = -1 <= margin 2 = max(2, 10% of 2 requests scheduled in the second half))",
		"r03                  ttft 420 ms (f − d) above the objective 300 ms",
		"ttft_ms                         5      272.4        240        420        420        420        420",
		"itl_ms                         16       55.5         50         60        120        120        120",
		"itl_ms                   gaps between tokens, pooled over successful requests whose every event is proven to hold one token (16 gaps from 4 requests)",
	} {
		if !strings.Contains(text, want) {
			t.Fatalf("text lacks %q:\n%s", want, text)
		}
	}
}

func TestTextShowsTheMostCommonErrorMessages(t *testing.T) {
	r, err := score.TraceFiles(seedTrace, seedEvents)
	if err != nil {
		t.Fatal(err)
	}
	missing := `The model "Qwen/Qwen3-0.6B" does not exist.`
	long := strings.Repeat("é", 100) // 200 bytes: cut at 160 bytes, 80 characters
	r.Requests = nil
	for range 3 {
		r.Requests = append(r.Requests, report.RequestScore{Status: record.StatusHTTPError, Error: missing})
	}
	for range 2 {
		r.Requests = append(r.Requests, report.RequestScore{Status: record.StatusStreamError, Error: "connection reset\nby peer"})
	}
	r.Requests = append(r.Requests, report.RequestScore{Status: record.StatusTimeout, Error: long}, report.RequestScore{Status: record.StatusSuccess})
	var buf bytes.Buffer
	if err := render.Text(&buf, r); err != nil {
		t.Fatal(err)
	}
	text := buf.String()
	for _, want := range []string{
		"Most common error messages (3 distinct)",
		"http_error:                          3 × " + missing + "\n",
		"stream_error:                        2 × connection reset by peer\n",
		"timeout:                             1 × " + strings.Repeat("é", 80) + "…\n",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("text lacks %q:\n%s", want, text)
		}
	}
	// The messages follow the status counts.
	if strings.Index(text, "Most common error messages") < strings.Index(text, "empty_output:") {
		t.Errorf("the messages come before the status counts:\n%s", text)
	}
}
