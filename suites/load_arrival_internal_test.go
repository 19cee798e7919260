package suites

import (
	"testing"

	"github.com/servebench/servebench/servebench"
)

// Every arrival process has its list of fields, and the list names no
// process that does not exist.
func TestArrivalFieldsCoverEveryProcess(t *testing.T) {
	for _, p := range servebench.Processes() {
		if _, ok := arrivalFields[p]; !ok {
			t.Errorf("no fields listed for %s", p)
		}
	}
	if len(arrivalFields) != len(servebench.Processes()) {
		t.Errorf("%d processes have fields, %d exist", len(arrivalFields), len(servebench.Processes()))
	}
}
