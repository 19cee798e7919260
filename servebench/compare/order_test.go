package compare_test

import (
	"testing"

	"github.com/servebench/servebench/servebench/compare"
)

// ABBA over four rounds runs A B B A B A A B: the baseline at positions
// 1, 4, 6, 7 (mean 4.5) and the candidate at 2, 3, 5, 8 (mean 4.5). Over
// three rounds (A B B A B A) the baseline holds 1, 4, 6 (mean 11/3) and
// the candidate 2, 3, 5 (mean 10/3).
func TestABBAOrder(t *testing.T) {
	o := compare.ABBAOrder(4)
	if got := o.Describe(); got != "ABBABAAB (ABBA; A baseline, B candidate): mean position baseline 4.5, candidate 4.5" {
		t.Errorf("four rounds: %s", got)
	}
	if o.Runs[5] != (compare.RunPosition{Position: 6, Side: compare.Baseline, Round: 3}) {
		t.Errorf("sixth run: %+v", o.Runs[5])
	}
	o = compare.ABBAOrder(3)
	if o.MeanPosition.Baseline != 11.0/3 || o.MeanPosition.Candidate != 10.0/3 {
		t.Errorf("three rounds: mean positions %+v", o.MeanPosition)
	}
}
