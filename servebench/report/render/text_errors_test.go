package render

import (
	"testing"

	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/servebench/report"
)

// TestCommonErrorMessagesKeepsTheMostCommon: ties are broken by message,
// and the distinct count covers every message.
func TestCommonErrorMessagesKeepsTheMostCommon(t *testing.T) {
	var reqs []report.RequestScore
	for i, n := range []int{1, 4, 2, 4, 1, 3} {
		for range n {
			reqs = append(reqs, report.RequestScore{Status: record.StatusHTTPError, Error: string(rune('a' + i))})
		}
	}
	m, err := commonErrorMessages(&report.Report{Requests: reqs})
	if err != nil {
		t.Fatal(err)
	}
	if m.Distinct != 6 || len(m.Top) != 6 || m.Capped {
		t.Fatalf("messages %+v", m)
	}
	// Counts 4 (b, d), then 3 (f), 2 (c), 1 (a, e); equal counts in
	// message order.
	for i, want := range []report.ErrorMessageCount{
		{Status: record.StatusHTTPError, Message: "b", Count: 4}, {Status: record.StatusHTTPError, Message: "d", Count: 4}, {Status: record.StatusHTTPError, Message: "f", Count: 3},
		{Status: record.StatusHTTPError, Message: "c", Count: 2}, {Status: record.StatusHTTPError, Message: "a", Count: 1}, {Status: record.StatusHTTPError, Message: "e", Count: 1}} {
		if m.Top[i] != want {
			t.Errorf("top[%d] = %+v, want %+v", i, m.Top[i], want)
		}
	}
}
