package servebench

import (
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/servebench/schedule"
)

// dispatchPlan is the schedule the dispatcher sends, read from
// schedule.json as it goes (see planReader), so that a run's memory does
// not grow with its length: the plan itself holds the file's path and the
// counts of its entries and arrival units, taken as the file was written.
type dispatchPlan struct {
	path  string
	n     int
	units int
}

// planEntry is one schedule entry as the dispatcher sends it.
type planEntry struct {
	id, class, adapter string
	scheduledMS        float64
	thinkMS            float64 // after the previous turn ended
	row                int
	expect             *record.Expectation // nil for none
}

// planUnit is an arrival unit: the plan's entries [first, first+len(entries)),
// an entry without a dependency and the later turns that follow it.
type planUnit struct {
	first   int
	entries []planEntry
}

// add counts an entry of the file being written, and checks it: an entry
// that depends on another continues the current arrival unit; any other
// starts a new one.
func (p *dispatchPlan) add(e *schedule.Entry) error {
	if e.Row < 0 || e.Row > 1<<31-1 {
		return fmt.Errorf("schedule: entry %s: row %d is out of range", e.ID, e.Row)
	}
	if p.n >= 1<<31-1 {
		return fmt.Errorf("schedule: entry %s: the schedule is too large to send (more than 2^31 entries)", e.ID)
	}
	if e.DependsOn == "" || p.n == 0 {
		p.units++
	}
	p.n++
	return nil
}

// Len is the number of entries the plan sends.
func (p *dispatchPlan) Len() int { return p.n }

// The read-ahead of a planReader: chunks of planChunkUnits units, at most
// planChunksAhead of them decoded before they are due.
const (
	planChunkUnits  = 256
	planChunksAhead = 2
)

// planReader hands out a plan's arrival units in order. A goroutine
// decodes schedule.json ahead of the dispatch, a few chunks at a time, so
// that the dispatcher never waits on the file and holds only those
// chunks. It is safe for concurrent use (a closed loop's users take units
// from one reader).
type planReader struct {
	chunks chan []planUnit
	stop   chan struct{}
	once   sync.Once

	mu  sync.Mutex
	cur []planUnit
	err error // what ended the read early; set before chunks closes

	// taken counts the units handed out and takenEntries their entries.
	taken        atomic.Int64
	takenEntries atomic.Int64
}

// read starts reading the plan's units from its file.
func (p *dispatchPlan) read() *planReader {
	r := &planReader{chunks: make(chan []planUnit, planChunksAhead), stop: make(chan struct{})}
	go r.decode(p.path)
	return r
}

// decode reads the file's entries into units and chunks until the end,
// an error, or close.
func (r *planReader) decode(path string) {
	defer close(r.chunks)
	st, err := schedule.OpenEntries(path)
	if err != nil {
		r.err = fmt.Errorf("run: read %s back: %w", path, err)
		return
	}
	defer st.Close()
	var chunk []planUnit
	var e schedule.Entry
	n := 0
	for {
		ok, err := st.Next(&e)
		if err != nil {
			r.err = fmt.Errorf("run: read %s back: %w", path, err)
			return
		}
		if !ok || e.DependsOn == "" || len(chunk) == 0 {
			if len(chunk) == planChunkUnits || !ok && len(chunk) > 0 {
				select {
				case r.chunks <- chunk:
				case <-r.stop:
					return
				}
				chunk = nil
			}
			if !ok {
				return
			}
			chunk = append(chunk, planUnit{first: n})
		}
		u := &chunk[len(chunk)-1]
		u.entries = append(u.entries, planEntry{id: e.ID, class: e.Class, adapter: e.Adapter, scheduledMS: e.ScheduledMS,
			thinkMS: e.ThinkMS, row: e.Row, expect: e.Expect})
		n++
	}
}

// ready waits until the first chunk is decoded (or the read ended), so
// that the dispatch does not start by waiting on the file.
func (r *planReader) ready() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.fill()
}

// fill takes the next chunk when the current one is spent; false when
// there is none. r.mu is held.
func (r *planReader) fill() bool {
	if len(r.cur) > 0 {
		return true
	}
	var ok bool
	r.cur, ok = <-r.chunks
	return ok
}

// next hands out the next unit; false once every unit was handed out, or
// the read failed (Err says so).
func (r *planReader) next() (planUnit, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if !r.fill() {
		return planUnit{}, false
	}
	u := r.cur[0]
	r.cur[0] = planUnit{}
	r.cur = r.cur[1:]
	r.taken.Add(1)
	r.takenEntries.Add(int64(len(u.entries)))
	return u, true
}

// close stops the read-ahead; the reader hands out nothing after it.
func (r *planReader) close() {
	r.once.Do(func() { close(r.stop) })
	for range r.chunks { // let the decoder finish
	}
}

// Err is what ended the read before the file's end, nil when nothing did.
// Read it once next has returned false.
func (r *planReader) Err() error { return r.err }

// onceBits is a set of entry indices, each set once, safe for concurrent
// use: one bit per entry.
type onceBits []atomic.Uint64

// newOnceBits makes a set for n indices.
func newOnceBits(n int) onceBits { return make(onceBits, (n+63)/64) }

// set adds i; false when i was in the set already.
func (b onceBits) set(i int) bool {
	m := uint64(1) << (i % 64)
	return b[i/64].Or(m)&m == 0
}

// has says whether i is in the set.
func (b onceBits) has(i int) bool { return b[i/64].Load()&(1<<(i%64)) != 0 }
