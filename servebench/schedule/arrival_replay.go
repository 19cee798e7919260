package schedule

import (
	"fmt"
	"math"
	"sort"
	"time"

	"github.com/servebench/servebench/servebench/record"
)

// Replay replays the scheduled_ms stored in a workload's rows, multiplied by
// a time scale. Scaling keeps the order and the relative gaps; it changes
// the duration of a fixed set of rows with it, and the schedule says so.
type Replay struct {
	spec  ArrivalSpec
	times []time.Duration // scaled, in arrival order
	rows  []int           // workload row of each arrival
	note  string
}

// NewReplay builds a replay of w's stored arrival times. scale 0 means 1.
// Every row that starts an arrival must carry scheduled_ms; later turns of a
// conversation follow the previous turn instead and need none.
func NewReplay(w *Workload, scale float64) (*Replay, error) {
	if scale == 0 {
		scale = 1
	}
	if !(scale > 0) || math.IsInf(scale, 0) {
		return nil, fmt.Errorf("arrival: replay time scale must be a positive finite number, got %v", scale)
	}
	rows := make([]int, 0, len(w.Requests))
	for i, r := range w.Requests {
		if r.Turn > 1 {
			continue // later turns follow their conversation, not the clock
		}
		if r.ScheduledMS == nil {
			return nil, fmt.Errorf("%s:%d: scheduled_ms: required for replay", w.Name, r.Line)
		}
		if scaled := *r.ScheduledMS * scale; !(scaled <= record.MaxTimeMS) {
			return nil, fmt.Errorf("%s:%d: scheduled_ms: %v ms at time scale %g is %v ms, beyond the latest time a schedule holds, %s",
				w.Name, r.Line, *r.ScheduledMS, scale, scaled, record.MaxTimeText)
		}
		rows = append(rows, i)
	}
	sort.SliceStable(rows, func(a, b int) bool {
		return *w.Requests[rows[a]].ScheduledMS < *w.Requests[rows[b]].ScheduledMS
	})
	p := &Replay{spec: ArrivalSpec{Process: ProcessReplay, TimeScale: scale}, rows: rows}
	for _, i := range rows {
		p.times = append(p.times, time.Duration(math.Round(*w.Requests[i].ScheduledMS*scale*float64(time.Millisecond))))
	}
	if scale != 1 && len(p.times) > 0 {
		span := p.times[len(p.times)-1] - p.times[0]
		p.note = fmt.Sprintf("replay time scale %g: the stored arrivals span %.3f s instead of %.3f s; order and relative gaps are kept, the duration changed with the rate",
			scale, span.Seconds(), span.Seconds()/scale)
	}
	return p, nil
}

// Spec declares the replay.
func (p *Replay) Spec() ArrivalSpec { return p.spec }

// Offsets returns the stored arrivals, in order, up to count and before
// limit. Without a limit the window closes one mean gap after the last
// arrival, so that N arrivals span N gaps as in the sampled processes.
func (p *Replay) Offsets(count int, limit time.Duration) ([]time.Duration, time.Duration, error) {
	if count < 0 || limit < 0 {
		return nil, 0, fmt.Errorf("arrival: count and duration must not be negative")
	}
	out := p.times
	if count > 0 && count < len(out) {
		out = out[:count]
	}
	if limit > 0 {
		n := sort.Search(len(out), func(i int) bool { return out[i] >= limit })
		return append([]time.Duration(nil), out[:n]...), limit, nil
	}
	if len(out) == 0 {
		return nil, 0, fmt.Errorf("arrival: replay has no arrivals")
	}
	last := out[len(out)-1]
	end := last + time.Millisecond
	if len(out) > 1 {
		end = last + (last-out[0])/time.Duration(len(out)-1)
	}
	return append([]time.Duration(nil), out...), end, nil
}

// rowOrder gives the workload row of each arrival.
func (p *Replay) rowOrder() []int { return p.rows }

// notes explains what the time scale did.
func (p *Replay) notes() []string {
	if p.note == "" {
		return nil
	}
	return []string{p.note}
}
