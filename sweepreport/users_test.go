package sweepreport

import (
	"bytes"
	"encoding/json"
	"math"
	"strings"
	"testing"

	"github.com/servebench/servebench/servebench/capacity"
	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/servebench/report"
	"github.com/servebench/servebench/servebench/schedule"
)

// closedReport is a closed-loop run's report with qualified of offered.
func closedReport(offered, qualified int) *report.Report {
	return &report.Report{Offered: offered, Qualified: qualified, Valid: true,
		Attainment: ptr(float64(qualified) / float64(offered)), StatusCounts: map[record.Status]int{},
		Generator: &report.GeneratorReport{Mode: schedule.ModeClosed}}
}

func TestUserSearchSweepJSONHasTheBracketAndNoRate(t *testing.T) {
	sw := &capacity.Sweep{Rule: capacity.Rule{MinAttainment: 0.95}, Points: []capacity.Point{
		{Users: 32, Report: closedReport(100, 100)},
		{Users: 48, Report: closedReport(100, 100)},
		{Users: 56, Report: closedReport(100, 85)},
	}, AutoUsers: &capacity.AutoUsers{Doubled: []int{32, 64}, Bisected: []int{48, 56}, Tolerance: 0.2}}
	res := FromSweep(sw, "")
	data, err := res.MarshalIndent()
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		KneeRPS  *float64 `json:"knee_rps"`
		Users    *int     `json:"slo_concurrency_users"`
		Capacity struct {
			Low, High, Confidence *float64
			Unit                  string
		} `json:"capacity"`
		Rates []struct {
			Users       int      `json:"users"`
			Verdict     string   `json:"verdict"`
			WilsonUpper *float64 `json:"wilson_upper"`
		} `json:"rates"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	if doc.KneeRPS != nil || doc.Users == nil || *doc.Users != 48 {
		t.Errorf("knee_rps %v, slo_concurrency_users %v; want null and 48", doc.KneeRPS, doc.Users)
	}
	c := doc.Capacity
	if c.Unit != "users" || *c.Low != 48 || *c.High != 56 || c.Confidence == nil {
		t.Errorf("capacity %+v", c)
	}
	// 85 of 100 at 95%: the upper bound is 1 - the Wilson lower bound of
	// the 15 failures, 1 - 0.09668 = 0.90332 (z = 1.644854).
	z := 1.6448536269514722
	n, f := 100.0, 15.0/100
	lower := (f + z*z/(2*n) - z*math.Sqrt(f*(1-f)/n+z*z/(4*n*n))) / (1 + z*z/n)
	if r := doc.Rates[2]; r.Users != 56 || r.Verdict != "fail" || math.Abs(*r.WilsonUpper-(1-lower)) > 1e-12 {
		t.Errorf("56 users row %+v, want upper bound %v", r, 1-lower)
	}
	var html bytes.Buffer
	if err := res.WriteHTML(&html); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Attainment against closed-loop users", "SLO concurrency between 48 and 56 users; confidence in the bracket 98.9% (limited by 48 users, shown to pass)", "SLO concurrency: 48 users", "56 users"} {
		if !strings.Contains(html.String(), want) {
			t.Errorf("sweep.html lacks %q", want)
		}
	}
}

func TestRateSweepJSONHasTheBracketInRequestsPerSecond(t *testing.T) {
	sw := &capacity.Sweep{Rule: capacity.Rule{MinAttainment: 0.95}, Points: []capacity.Point{
		{OfferedRPS: 1, Report: &report.Report{Offered: 100, Qualified: 100, Valid: true, Attainment: ptr(1.0)}},
		{OfferedRPS: 2, Report: &report.Report{Offered: 100, Qualified: 90, Valid: true, Attainment: ptr(0.9)}},
	}}
	res := FromSweep(sw, "")
	if c := res.Capacity; c.Unit != "req/s" || *c.Low != 1 || *c.High != 2 || *res.KneeRPS != 1 {
		t.Errorf("capacity %+v, knee %v", c, res.KneeRPS)
	}
}
