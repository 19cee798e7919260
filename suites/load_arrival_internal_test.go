package suites

import (
	"testing"

	"github.com/servebench/servebench/servebench/schedule"
)

// Every arrival process has its list of fields, and the list names no
// process that does not exist.
func TestArrivalFieldsCoverEveryProcess(t *testing.T) {
	for _, p := range schedule.Processes() {
		if _, ok := arrivalFields[p]; !ok {
			t.Errorf("no fields listed for %s", p)
		}
	}
	if len(arrivalFields) != len(schedule.Processes()) {
		t.Errorf("%d processes have fields, %d exist", len(arrivalFields), len(schedule.Processes()))
	}
}
