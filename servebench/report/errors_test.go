package report

import (
	"strconv"
	"testing"

	"github.com/servebench/servebench/servebench/record"
)

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
