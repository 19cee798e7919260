package servebench

import (
	"fmt"

	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/servebench/schedule"
)

// dispatchPlan is the dispatcher's compact copy of the schedule it sends:
// about 30 bytes per entry (the packed ID, class and time, the workload
// row and a unit boundary), so that a run's memory does not grow with its
// length by the size of a schedule.Entry per request. Think times and
// quality expectations cost a slot per entry only in a schedule that has
// any.
type dispatchPlan struct {
	schedule.PackedEntries
	row    []int32
	units  []int32               // first entry of each arrival unit
	think  []float64             // nil when no entry has a think time
	expect []*record.Expectation // nil when no entry has an expectation
}

// planOf packs a schedule's entries.
func planOf(s *schedule.Schedule) (*dispatchPlan, error) {
	p := &dispatchPlan{}
	for i := range s.Entries {
		if err := p.add(&s.Entries[i]); err != nil {
			return nil, err
		}
	}
	return p, nil
}

// add appends an entry. An entry that depends on another continues the
// current arrival unit; any other starts a new one.
func (p *dispatchPlan) add(e *schedule.Entry) error {
	n := p.Len()
	if e.Row < 0 || e.Row > 1<<31-1 {
		return fmt.Errorf("schedule: entry %s: row %d is out of range", e.ID, e.Row)
	}
	if !p.PackedEntries.Add(e.ID, e.Class, e.ScheduledMS) || !p.SetAdapter(e.Adapter) {
		return fmt.Errorf("schedule: entry %s: the schedule is too large to send (more than 2^31 entries, 4 GiB of IDs or 65,535 classes or adapters)", e.ID)
	}
	p.row = append(p.row, int32(e.Row))
	if e.DependsOn == "" || n == 0 {
		p.units = append(p.units, int32(n))
	}
	if p.think != nil || e.ThinkMS != 0 {
		p.think = append(growTo(p.think, n), e.ThinkMS)
	}
	if p.expect != nil || e.Expect != nil {
		p.expect = append(growTo(p.expect, n), e.Expect)
	}
	return nil
}

// growTo extends s with zero values to length n.
func growTo[T any](s []T, n int) []T {
	if len(s) >= n {
		return s
	}
	return append(s, make([]T, n-len(s))...)
}

// unit is the range [first, end) of arrival unit u's entries.
func (p *dispatchPlan) unit(u int) (first, end int) {
	first, end = int(p.units[u]), p.Len()
	if u+1 < len(p.units) {
		end = int(p.units[u+1])
	}
	return first, end
}

// thinkMS is entry i's think time after the previous turn ended.
func (p *dispatchPlan) thinkMS(i int) float64 {
	if p.think == nil {
		return 0
	}
	return p.think[i]
}

// expectation is entry i's quality expectation, nil for none.
func (p *dispatchPlan) expectation(i int) *record.Expectation {
	if p.expect == nil {
		return nil
	}
	return p.expect[i]
}
