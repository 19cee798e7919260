package servebench

import (
	"testing"

	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/servebench/schedule"
)

// The plan keeps each entry's ID, class, time and row, groups a
// conversation's turns into one arrival unit, and holds think times and
// expectations only once some entry has one.
func TestDispatchPlanPacksEntriesAndUnits(t *testing.T) {
	exact := "4"
	exp := &record.Expectation{Exact: &exact}
	s := &schedule.Schedule{Entries: []schedule.Entry{
		{ID: "a", Row: 0, ScheduledMS: 0},
		{ID: "c1", Row: 1, Class: "chat", ScheduledMS: 10},
		{ID: "c1/2", Row: 2, Class: "chat", ScheduledMS: 10, DependsOn: "c1", ThinkMS: 1500},
		{ID: "c1/3", Row: 3, Class: "chat", ScheduledMS: 10, DependsOn: "c1/2", ThinkMS: 250, Expect: exp},
		{ID: "a#2", Row: 0, ScheduledMS: 20},
	}}
	p, err := planOf(s)
	if err != nil {
		t.Fatal(err)
	}
	if p.Len() != 5 || string(p.ID(2)) != "c1/2" || p.Class(3) != "chat" || p.Class(4) != "" ||
		p.Scheduled[4] != 20 || p.row[3] != 3 {
		t.Fatalf("plan entries: ids %q, rows %v, times %v", p.IDs, p.row, p.Scheduled)
	}
	var units [][2]int
	for u := range p.units {
		first, end := p.unit(u)
		units = append(units, [2]int{first, end})
	}
	if want := [][2]int{{0, 1}, {1, 4}, {4, 5}}; len(units) != 3 || units[0] != want[0] || units[1] != want[1] || units[2] != want[2] {
		t.Fatalf("units %v, want %v", units, want)
	}
	if p.thinkMS(0) != 0 || p.thinkMS(2) != 1500 || p.thinkMS(3) != 250 || p.thinkMS(4) != 0 {
		t.Fatalf("think times %v", p.think)
	}
	if p.expectation(2) != nil || p.expectation(3) != exp || p.expectation(4) != nil || len(p.expect) != 5 {
		t.Fatalf("expectations %v", p.expect)
	}

	plain, err := planOf(&schedule.Schedule{Entries: []schedule.Entry{{ID: "x"}, {ID: "y", ScheduledMS: 1}}})
	if err != nil {
		t.Fatal(err)
	}
	if plain.think != nil || plain.expect != nil || len(plain.units) != 2 {
		t.Fatalf("a plain schedule's plan holds think %v, expect %v, units %v", plain.think, plain.expect, plain.units)
	}
}
