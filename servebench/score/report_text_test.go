package score

import (
	"bytes"
	"strings"
	"testing"

	"github.com/servebench/servebench/servebench/report"
)

func TestWriteTextShowsDenominators(t *testing.T) {
	r, err := Files(seedTracePath, seedEventsPath)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := r.WriteText(&buf); err != nil {
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

func TestWriteTextSaysWhyALoadWasNotDelivered(t *testing.T) {
	r, err := scoreSeedEdit(t, func(s string) string { return strings.Replace(s, `"sent_ms": 765`, `"sent_ms": 800`, 1) })
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := r.WriteText(&buf); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), "NO: the load was not delivered") || !strings.Contains(buf.String(), "max schedule lag 40 ms") {
		t.Fatalf("text:\n%s", buf.String())
	}
}

func TestGomegaString(t *testing.T) {
	r, err := Files(seedTracePath, seedEventsPath)
	if err != nil {
		t.Fatal(err)
	}
	want := "Report{offered 6 (3.000 req/s), protocol successes 5, qualified 3, attainment 0.500 (3/6, performance+quality), " +
		"wilson lower 0.221 at 95%, status success=5 timeout=1, ttft p50/p99 240/420 ms (n=5), tpot p50/p99 59.333/60 ms (n=4), " +
		"e2e p50/p99 500/628 ms (n=5), max schedule lag 5 ms, valid true}"
	if got := r.GomegaString(); got != want {
		t.Fatalf("GomegaString\n got %s\nwant %s", got, want)
	}
	late, _ := scoreSeedEdit(t, func(s string) string { return strings.Replace(s, `"sent_ms": 765`, `"sent_ms": 800`, 1) })
	if got := late.GomegaString(); !strings.HasSuffix(got, "max schedule lag 40 ms, valid false (1 of 6 offered requests were sent more than 20 ms after their scheduled time (max schedule lag 40 ms))}") {
		t.Fatalf("GomegaString %s", got)
	}
	var nilReport *report.Report
	if nilReport.GomegaString() != "Report<nil>" {
		t.Fatal("nil report")
	}
}
