package score

import (
	"math"
	"reflect"
	"testing"

	"github.com/servebench/servebench/internal/synthrun"
	"github.com/servebench/servebench/servebench/record"
)

// The checks split between the decoding goroutine (checkOutcomeAlone) and
// the scoring one (recordFromChecked) accept exactly the records that
// recordFromOutcome accepts, and give the same record.
func TestRecordFromCheckedMatchesRecordFromOutcome(t *testing.T) {
	type variant struct {
		name      string
		scheduled float64
		change    func(o *record.Outcome)
		valid     bool
	}
	variants := []variant{
		{"plain", 1, func(*record.Outcome) {}, true},
		{"failed", 0, func(*record.Outcome) {}, true}, // synthrun's request 0 fails with HTTP 503
		{"negative scheduled", -1, func(*record.Outcome) {}, false},
		{"unknown status", 1, func(o *record.Outcome) { o.Status = "sideways" }, false},
		{"infinite terminal", 1, func(o *record.Outcome) { o.TerminalMS = math.Inf(1) }, false},
		{"negative slot", 1, func(o *record.Outcome) { o.SlotMS = new(-2.0) }, false},
		{"not sent with a send time", 1, func(o *record.Outcome) { o.Status = record.StatusNotSent }, false},
		{"first content disagrees", 1, func(o *record.Outcome) { o.FirstContentMS = new(*o.FirstContentMS + 1) }, false},
		{"event tokens short", 1, func(o *record.Outcome) { o.EventTokens = o.EventTokens[1:] }, false},
		{"negative output tokens", 1, func(o *record.Outcome) { o.OutputTokens = new(-1) }, false},
		{"two-token event", 1, func(o *record.Outcome) { o.EventTokens = append([]int{2}, o.EventTokens[1:]...) }, true},
	}
	decline := func(string, string, ...any) error { return errWindowDeclined }
	for _, v := range variants {
		i := 1
		if v.name == "failed" {
			i = 0
		}
		o := synthrun.Outcome(i, 4)
		v.change(&o)
		want, err := recordFromOutcome(&o, v.scheduled, "c", decline)
		got, ok := recordFromChecked(&o, checkOutcomeAlone(&o), v.scheduled, "c")
		if ok != (err == nil) || ok != v.valid {
			t.Fatalf("%s: split checks %v, recordFromOutcome %v, want valid %v", v.name, ok, err, v.valid)
		}
		if ok && !reflect.DeepEqual(got, want) {
			t.Fatalf("%s: records differ:\n%+v\n%+v", v.name, got, want)
		}
		if v.name == "plain" && !got.tokenLevel || v.name == "two-token event" && got.tokenLevel {
			t.Fatalf("%s: token level %v", v.name, got.tokenLevel)
		}
	}
}
