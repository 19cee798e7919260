package score

import (
	"math"
	"strings"
	"testing"

	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/servebench/report"
	"github.com/servebench/servebench/servebench/report/render"
	"github.com/servebench/servebench/servebench/stats"
)

func TestGiniByHand(t *testing.T) {
	// [1, 2, 3]: Σ|xi − xj| over ordered pairs = 8, 2 k² mean = 36.
	for _, tc := range []struct {
		counts []float64
		want   float64
	}{{[]float64{1, 2, 3}, 8.0 / 36}, {[]float64{5, 5, 5, 5}, 0}, {[]float64{15, 5}, 0.25}} {
		if g := gini(tc.counts); g == nil || math.Abs(*g-tc.want) > 1e-12 {
			t.Errorf("gini(%v) = %v, want %v", tc.counts, g, tc.want)
		}
	}
	if gini([]float64{7}) != nil {
		t.Error("one value has a Gini")
	}
}

func TestBreakdownOfCountsEveryRequestOnce(t *testing.T) {
	reqs := []report.RequestScore{
		{ID: "1", Class: "a", Backend: "x", Status: record.StatusSuccess, Qualified: true, TTFTMS: new(10.0)},
		{ID: "2", Class: "a", Backend: "x", Status: record.StatusSuccess, TTFTMS: new(30.0)},
		{ID: "3", Class: "b", Status: record.StatusNotSent},
	}
	bd := breakdownOf(reqs, "")
	x, none := bd["backend"].Values["x"], bd["backend"].Values[report.BreakdownNone]
	if x.Offered != 2 || x.Qualified != 1 || *x.Attainment != 0.5 || *x.TTFT.Mean != 20 || *x.TTFT.Max != 30 || none.Offered != 1 {
		t.Errorf("backend x %+v, none %+v", x, none)
	}
	if bd["backend"].Gini != nil {
		t.Error("one named backend has a Gini")
	}
	// Classes a and b have 2 and 1 requests: Gini = 2 x 1 / (2 x 4 x 1.5) = 1/6.
	if a := bd["class"].Values["a"]; a.Offered != 2 || math.Abs(a.Share-2.0/3) > 1e-12 || math.Abs(*bd["class"].Gini-1.0/6) > 1e-12 {
		t.Errorf("class a %+v, Gini %v", a, *bd["class"].Gini)
	}
	if breakdownOf([]report.RequestScore{{ID: "1"}}, "") != nil {
		t.Error("no dimension carried, yet a breakdown")
	}
}

func TestBreakdownInTheTextReport(t *testing.T) {
	reqs := []report.RequestScore{
		{ID: "1", Backend: "x", Status: record.StatusSuccess, Qualified: true, TTFTMS: new(10.0)},
		{ID: "2", Backend: "y", Status: record.StatusSuccess, Qualified: true, TTFTMS: new(30.0)},
		{ID: "3", Backend: "y", Status: record.StatusSuccess, TTFTMS: new(50.0)},
	}
	r := &report.Report{Offered: 3, Breakdown: breakdownOf(reqs, "")}
	var b strings.Builder
	if err := render.Text(&b, r); err != nil {
		t.Fatal(err)
	}
	// Counts 1 and 2: Gini = 2 x 1 / (2 x 4 x 1.5) = 1/6 = 0.167.
	// Attainments 1 and 0.5: Jain = 1.5² / (2 x 1.25) = 0.9.
	for _, want := range []string{"Breakdown by backend (Gini of offered requests 0.167, Jain's index of attainment 0.900)", "x                               1    0.333      1.000"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("text report lacks %q:\n%s", want, b.String())
		}
	}
}

// breakdownOf is the breakdown of requests held in memory, with the
// cohort's own populations kept beside it as the scorer keeps them.
func breakdownOf(requests []report.RequestScore, method stats.PercentileMethod) map[string]*report.BreakdownDimension {
	ttft, tpot, e2e := newPopulation(false), newPopulation(false), newPopulation(false)
	t := newBreakdownTally(func() (*population, *population, *population) { return ttft, tpot, e2e })
	for i := range requests {
		rs := &requests[i]
		t.add(rs)
		if rs.Status == record.StatusSuccess {
			addDefined(ttft, rs.TTFTMS)
			addDefined(tpot, rs.TPOTMS)
			addDefined(e2e, rs.E2EMS)
		}
	}
	bd, err := t.report(method, nil)
	if err != nil {
		panic(err)
	}
	return bd
}

// TestJainByHand: J = (Σx)² / (n·Σx²) over the values' attainment.
func TestJainByHand(t *testing.T) {
	for _, tc := range []struct {
		xs   []float64
		want float64
	}{
		{[]float64{1, 0.5}, 2.25 / 2.5},         // 0.9
		{[]float64{0.8, 0.8, 0.8}, 1},           // equal shares
		{[]float64{1, 0, 0, 0}, 0.25},           // one value alone: 1/n
		{[]float64{0.9, 0.6, 0.3}, 3.24 / 3.78}, // (1.8)² / (3 x 1.26)
	} {
		if j, ok := report.JainIndex(tc.xs); !ok || math.Abs(j-tc.want) > 1e-12 {
			t.Errorf("JainIndex(%v) = %v, %v, want %v", tc.xs, j, ok, tc.want)
		}
	}
	for _, xs := range [][]float64{{0.7}, {0, 0}, nil} {
		if _, ok := report.JainIndex(xs); ok {
			t.Errorf("JainIndex(%v) is defined", xs)
		}
	}
}

// TestBreakdownByTenant: the tenant dimension splits the requests by
// their tenant, requests without one under (none), which Jain's index
// leaves out. Tenant a qualifies 2 of 2, b 1 of 2: attainments 1 and 0.5,
// J = 0.9.
func TestBreakdownByTenant(t *testing.T) {
	reqs := []report.RequestScore{
		{ID: "1", Tenant: "a", Status: record.StatusSuccess, Qualified: true, TTFTMS: new(10.0)},
		{ID: "2", Tenant: "a", Status: record.StatusSuccess, Qualified: true, TTFTMS: new(20.0)},
		{ID: "3", Tenant: "b", Status: record.StatusSuccess, Qualified: true, TTFTMS: new(30.0)},
		{ID: "4", Tenant: "b", Status: record.StatusRejected},
		{ID: "5", Status: record.StatusRejected},
	}
	bd := breakdownOf(reqs, "")["tenant"]
	if bd == nil {
		t.Fatal("no tenant breakdown")
	}
	a, b, none := bd.Values["a"], bd.Values["b"], bd.Values[report.BreakdownNone]
	if a.Offered != 2 || *a.Attainment != 1 || b.Offered != 2 || *b.Attainment != 0.5 || none.Offered != 1 || *none.Attainment != 0 {
		t.Errorf("a %+v, b %+v, none %+v", a, b, none)
	}
	if bd.Jain == nil || math.Abs(*bd.Jain-0.9) > 1e-12 {
		t.Errorf("Jain %v, want 0.9", bd.Jain)
	}
	// Offered 2 and 2: Gini 0.
	if bd.Gini == nil || *bd.Gini != 0 {
		t.Errorf("Gini %v, want 0", bd.Gini)
	}
}
