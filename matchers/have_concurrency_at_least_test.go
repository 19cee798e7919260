package matchers_test

import (
	"strings"
	"testing"

	"github.com/servebench/servebench/matchers"
	"github.com/servebench/servebench/servebench/capacity"
	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/servebench/report"
	"github.com/servebench/servebench/servebench/schedule"
)

func usersPoint(users, offered, qualified int) capacity.Point {
	a := float64(qualified) / float64(offered)
	return capacity.Point{Users: users, Report: &report.Report{Offered: offered, Qualified: qualified, Valid: true, Attainment: &a,
		StatusCounts: map[record.Status]int{}, Generator: &report.GeneratorReport{Mode: schedule.ModeClosed}}}
}

func TestHaveConcurrencyAtLeast(t *testing.T) {
	sw := &capacity.Sweep{Rule: capacity.Rule{MinAttainment: 0.95}, Points: []capacity.Point{
		usersPoint(8, 100, 100), usersPoint(16, 100, 96), usersPoint(32, 100, 80),
	}}
	if ok, err := matchers.HaveConcurrencyAtLeast(16).Match(sw); !ok || err != nil {
		t.Errorf("16 users: %v, %v; want a match (16 passes with 96 of 100)", ok, err)
	}
	m := matchers.HaveConcurrencyAtLeast(17)
	if ok, err := m.Match(sw); ok || err != nil {
		t.Errorf("17 users: %v, %v; want no match", ok, err)
	}
	msg := m.FailureMessage(sw)
	for _, want := range []string{"Expected SLO concurrency 16 users to be at least 17 users\nanswer: SLO concurrency between 16 and 32 users; confidence in the bracket 68% (limited by 16 users, not shown to pass)\n", "32 users: fail (attainment 0.800)"} {
		if !strings.Contains(msg, want) {
			t.Errorf("message lacks %q:\n%s", want, msg)
		}
	}
	if _, err := matchers.HaveConcurrencyAtLeast(1).Match(&capacity.Sweep{Points: []capacity.Point{{OfferedRPS: 2, Report: &report.Report{}}}}); err == nil {
		t.Error("a rate sweep: no error")
	}
	if _, err := matchers.HaveCapacityAtLeast(1).Match(sw); err == nil || !strings.Contains(err.Error(), "use HaveConcurrencyAtLeast") {
		t.Errorf("HaveCapacityAtLeast on a user search: %v", err)
	}
}
