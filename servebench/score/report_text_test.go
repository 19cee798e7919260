package score

import (
	"bytes"
	"strings"
	"testing"

	"github.com/servebench/servebench/servebench/report"
	"github.com/servebench/servebench/servebench/report/render"
)

func TestTextSaysWhyALoadWasNotDelivered(t *testing.T) {
	r, err := scoreSeedEdit(t, func(s string) string { return strings.Replace(s, `"sent_ms": 765`, `"sent_ms": 800`, 1) })
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := render.Text(&buf, r); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), "NO: the load was not delivered") || !strings.Contains(buf.String(), "max schedule lag 40 ms") {
		t.Fatalf("text:\n%s", buf.String())
	}
}

func TestGomegaString(t *testing.T) {
	r, err := TraceFiles(seedTracePath, seedEventsPath)
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
