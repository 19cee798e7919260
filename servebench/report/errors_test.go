package report

import (
	"strconv"
	"testing"

	"github.com/servebench/servebench/servebench/record"
)

// TestCommonErrorMessagesKeepsTheMostCommon: ties are broken by message,
// and the distinct count covers every message.
func TestCommonErrorMessagesKeepsTheMostCommon(t *testing.T) {
	var reqs []RequestScore
	for i, n := range []int{1, 4, 2, 4, 1, 3} {
		for range n {
			reqs = append(reqs, RequestScore{Status: record.StatusHTTPError, Error: string(rune('a' + i))})
		}
	}
	m, err := commonErrorMessages(&Report{Requests: reqs})
	if err != nil {
		t.Fatal(err)
	}
	if m.Distinct != 6 || len(m.Top) != 6 || m.Capped {
		t.Fatalf("messages %+v", m)
	}
	// Counts 4 (b, d), then 3 (f), 2 (c), 1 (a, e); equal counts in
	// message order.
	for i, want := range []ErrorMessageCount{{record.StatusHTTPError, "b", 4}, {record.StatusHTTPError, "d", 4}, {record.StatusHTTPError, "f", 3},
		{record.StatusHTTPError, "c", 2}, {record.StatusHTTPError, "a", 1}, {record.StatusHTTPError, "e", 1}} {
		if m.Top[i] != want {
			t.Errorf("top[%d] = %+v, want %+v", i, m.Top[i], want)
		}
	}
}

// TestErrorMessageTallyCapsDistinctMessages: past MaxErrorMessages
// distinct messages, new ones are not told apart, the old ones are still
// counted, and the result says the distinct count is a lower bound.
func TestErrorMessageTallyCapsDistinctMessages(t *testing.T) {
	var tally ErrorMessageTally
	for i := range MaxErrorMessages + 10 {
		tally.Add(record.StatusTimeout, "request "+strconv.Itoa(i)+" timed out")
	}
	tally.Add(record.StatusTimeout, "request 0 timed out")
	tally.Add(record.StatusSuccess, "")
	m := tally.Result()
	if m.Distinct != MaxErrorMessages || !m.Capped || len(m.Top) != TopErrorMessages || m.Top[0].Count != 2 || m.Top[0].Message != "request 0 timed out" {
		t.Fatalf("distinct %d, capped %v, top %+v", m.Distinct, m.Capped, m.Top[:2])
	}
}
