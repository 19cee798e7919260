package servebench

import (
	"path/filepath"
	"reflect"
	"strconv"
	"sync"
	"testing"

	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/servebench/schedule"
)

// planUnits reads every unit of a plan.
func planUnits(t *testing.T, p *dispatchPlan) []planUnit {
	t.Helper()
	r := p.read()
	defer r.close()
	var us []planUnit
	for {
		u, ok := r.next()
		if !ok {
			break
		}
		us = append(us, u)
	}
	if err := r.Err(); err != nil {
		t.Fatal(err)
	}
	return us
}

// The plan streamed back from schedule.json yields each entry's ID,
// class, adapter, time, row, think time and expectation, a conversation's
// turns as one arrival unit, numbered from the entries before it.
func TestDispatchPlanStreamsEntriesAndUnits(t *testing.T) {
	exact := "4"
	exp := &record.Expectation{Exact: &exact}
	s := &schedule.Schedule{Schema: schedule.Schema, Mode: schedule.ModeOpen, Entries: []schedule.Entry{
		{ID: "a", Row: 0, ScheduledMS: 0},
		{ID: "c1", Row: 1, Class: "chat", ScheduledMS: 10, Adapter: "sql"},
		{ID: "c1/2", Row: 2, Class: "chat", ScheduledMS: 10, DependsOn: "c1", ThinkMS: 1500},
		{ID: "c1/3", Row: 3, Class: "chat", ScheduledMS: 10, DependsOn: "c1/2", ThinkMS: 250, Expect: exp},
		{ID: "a#2", Row: 0, ScheduledMS: 20.125},
	}}
	prepared, err := writeSchedule(filepath.Join(t.TempDir(), record.ScheduleFile), s)
	if err != nil {
		t.Fatal(err)
	}
	p := prepared.plan
	if p.Len() != 5 || p.units != 3 {
		t.Fatalf("plan of %d entries in %d units, want 5 in 3", p.Len(), p.units)
	}
	want := []planUnit{
		{first: 0, entries: []planEntry{{id: "a"}}},
		{first: 1, entries: []planEntry{
			{id: "c1", class: "chat", adapter: "sql", scheduledMS: 10, row: 1},
			{id: "c1/2", class: "chat", scheduledMS: 10, thinkMS: 1500, row: 2},
			{id: "c1/3", class: "chat", scheduledMS: 10, thinkMS: 250, row: 3, expect: exp},
		}},
		{first: 4, entries: []planEntry{{id: "a#2", scheduledMS: 20.125}}},
	}
	if got := planUnits(t, p); !reflect.DeepEqual(got, want) {
		t.Fatalf("units\n%+v\nwant\n%+v", got, want)
	}
}

// A plan of 2,000 single-entry units (eight chunks of 256 and a short
// one) streams back the in-memory schedule's requests and due times in
// order; four goroutines taking units from one reader, as a closed loop's
// users do, take each unit once; a reader closed early stops.
func TestDispatchPlanStreamsAcrossChunks(t *testing.T) {
	s := &schedule.Schedule{Schema: schedule.Schema, Mode: schedule.ModeOpen}
	for i := range 2000 {
		s.Entries = append(s.Entries, schedule.Entry{ID: "r" + strconv.Itoa(i), Row: i % 3, ScheduledMS: float64(i) * 0.75})
	}
	prepared, err := writeSchedule(filepath.Join(t.TempDir(), record.ScheduleFile), s)
	if err != nil {
		t.Fatal(err)
	}
	p := prepared.plan
	got := planUnits(t, p)
	if len(got) != 2000 {
		t.Fatalf("%d units, want 2000", len(got))
	}
	for i, u := range got {
		e := s.Entries[i]
		if u.first != i || len(u.entries) != 1 || u.entries[0].id != e.ID || u.entries[0].scheduledMS != e.ScheduledMS || u.entries[0].row != e.Row {
			t.Fatalf("unit %d: %+v, want entry %+v", i, u, e)
		}
	}

	r := p.read()
	r.ready() // the first chunk is decoded before the dispatch starts
	if len(r.cur) != planChunkUnits || r.cur[0].first != 0 {
		t.Fatalf("ready: %d units decoded, want the first chunk's %d", len(r.cur), planChunkUnits)
	}
	var mu sync.Mutex
	seen := map[int]int{}
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			for {
				u, ok := r.next()
				if !ok {
					return
				}
				mu.Lock()
				seen[u.first]++
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	r.close()
	if len(seen) != 2000 || r.taken.Load() != 2000 || r.takenEntries.Load() != 2000 {
		t.Fatalf("%d distinct units taken (%d, %d counted), want 2000", len(seen), r.taken.Load(), r.takenEntries.Load())
	}
	for first, n := range seen {
		if n != 1 {
			t.Fatalf("unit %d taken %d times", first, n)
		}
	}

	early := p.read()
	if u, ok := early.next(); !ok || u.first != 0 {
		t.Fatalf("first unit %+v, %v", u, ok)
	}
	early.close() // returns once the read-ahead stopped
	if early.taken.Load() != 1 || early.Err() != nil {
		t.Fatalf("closed early: %d taken, %v", early.taken.Load(), early.Err())
	}
}

// Each index of a onceBits is set once: 0, 63, 64 and 129 span three
// words.
func TestOnceBits(t *testing.T) {
	b := newOnceBits(130)
	if len(b) != 3 {
		t.Fatalf("%d words for 130 bits, want 3", len(b))
	}
	for _, i := range []int{0, 63, 64, 129} {
		if b.has(i) || !b.set(i) || !b.has(i) || b.set(i) {
			t.Fatalf("bit %d", i)
		}
	}
	if b.has(1) || b.has(65) || b.has(128) {
		t.Fatal("a bit never set is set")
	}
}
