package report

import (
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
	top, distinct, err := commonErrorMessages(&Report{Requests: reqs}, 3)
	if err != nil {
		t.Fatal(err)
	}
	if distinct != 6 || len(top) != 3 {
		t.Fatalf("distinct %d, top %v", distinct, top)
	}
	// Counts 4 (b, d), then 3 (f); equal counts in message order.
	for i, want := range []errorMessageCount{{record.StatusHTTPError, "b", 4}, {record.StatusHTTPError, "d", 4}, {record.StatusHTTPError, "f", 3}} {
		if top[i] != want {
			t.Errorf("top[%d] = %+v, want %+v", i, top[i], want)
		}
	}
}
