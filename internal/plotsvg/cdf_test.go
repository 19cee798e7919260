package plotsvg

import (
	"fmt"
	"testing"
)

func TestCDFSteps(t *testing.T) {
	if CDFSteps(nil, 10) != nil {
		t.Fatal("an empty sample has a CDF")
	}
	// Every step of 4 values: (10, 0), then 1/4, 2/4, 3/4, 4/4.
	got := fmt.Sprint(CDFSteps([]float64{10, 20, 20, 40}, 10))
	if want := "[{10 0} {10 0.25} {20 0.5} {20 0.75} {40 1}]"; got != want {
		t.Fatalf("got %s, want %s", got, want)
	}
	// 101 values thinned to 3 steps: ranks round(k·100/2) = 0, 50, 100.
	xs := make([]float64, 101)
	for i := range xs {
		xs[i] = float64(i)
	}
	got = fmt.Sprint(CDFSteps(xs, 3))
	if want := fmt.Sprint([]any{"{0 0}", "{0 0.009900990099009901}", "{50 0.504950495049505}", "{100 1}"}); got != want {
		t.Fatalf("got %s, want %s", got, want)
	}
}

func TestShareTicks(t *testing.T) {
	var labels []string
	for _, tk := range (ShareTicks{}).Ticks(0, 1) {
		if tk.Label != "" {
			labels = append(labels, tk.Label)
		}
	}
	if fmt.Sprint(labels) != "[0% 25% 50% 75% 100%]" || len((ShareTicks{}).Ticks(0, 1)) != 21 {
		t.Fatalf("labels %v", labels)
	}
}
