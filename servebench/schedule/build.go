package schedule

import (
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"sort"
	"strconv"
	"time"

	"github.com/servebench/servebench/servebench/record"

	"github.com/google/uuid"
)

// DefaultLagTolerance is the schedule lag beyond which a request counts as
// late and the run stops being evidence for its offered rate.
const DefaultLagTolerance = 20 * time.Millisecond

// Plan says how to realize a schedule from a workload.
type Plan struct {
	// Workload supplies the rows; they are cycled when the schedule needs
	// more arrivals than the workload has.
	Workload *Workload
	// Arrival is the open-loop process; nil when ClosedLoop is set.
	Arrival Arrival
	// ClosedLoop declares a closed loop instead: N users with a think time.
	ClosedLoop *ClosedLoop
	// Count bounds the number of arrivals (a conversation arrives once and
	// brings all its turns); Duration bounds the arrival window. At least
	// one is required. A closed loop with a Duration is bounded by time:
	// its users stop starting requests at the deadline, Count (when given)
	// bounds the sessions they may take, and its window is [0, Duration).
	Count    int
	Duration time.Duration
	// LagTolerance is the declared schedule-lag tolerance (default 20 ms).
	LagTolerance time.Duration
	// RunID identifies the run; empty means a new UUIDv7.
	RunID string
	// Adapters, when set, is the LoRA adapter mix each arrival unit's
	// adapter is drawn from, seeded by the arrival's seed.
	Adapters *AdapterMix
}

// ClosedLoop is a fixed population of users, each sending its next request
// ThinkTime after its previous one ended. Its offered rate follows the
// server's speed, so it is reported as closed loop and never as a capacity.
type ClosedLoop struct {
	Users     int
	ThinkTime time.Duration
}

// Build realizes a schedule. It is computed once, before anything is
// sent; its JSON form is what Write saves and hashes.
func Build(p Plan) (*Schedule, error) {
	r, err := Realize(p)
	if err != nil {
		return nil, err
	}
	s := r.Head
	s.Entries = make([]Entry, 0, r.count())
	err = r.Entries(func(e *Entry) error {
		s.Entries = append(s.Entries, *e)
		return nil
	})
	return s, err
}

// Realization is a schedule on its way to being realized: the header,
// complete, and what its entries are made from, so that the entries can
// be produced one at a time, in arrival order, and a long schedule
// written and planned without ever being held whole.
type Realization struct {
	Head     *Schedule // Entries is nil
	workload *Workload
	adapters *AdapterMix
	units    [][]int         // workload rows of each arrival unit
	order    []int           // unit of each arrival, before cycling
	offsets  []time.Duration // arrival instants
}

// Realize checks the plan and fixes the schedule's header and arrivals.
func Realize(p Plan) (*Realization, error) {
	if p.Workload == nil || len(p.Workload.Requests) == 0 {
		return nil, fmt.Errorf("schedule: a workload with at least one request is required")
	}
	if (p.Arrival == nil) == (p.ClosedLoop == nil) {
		return nil, fmt.Errorf("schedule: give exactly one of an open-loop arrival process and a closed loop")
	}
	tol := p.LagTolerance
	if tol == 0 {
		tol = DefaultLagTolerance
	}
	if tol < 0 {
		return nil, fmt.Errorf("schedule: lag tolerance must not be negative")
	}
	runID := p.RunID
	if runID == "" {
		id, err := uuid.NewV7()
		if err != nil {
			return nil, fmt.Errorf("schedule: run id: %w", err)
		}
		runID = id.String()
	}
	s := &Schedule{
		Schema:                 Schema,
		RunID:                  runID,
		ScheduleLagToleranceMS: record.Millis(tol),
		WorkloadSHA256:         p.Workload.SHA256,
		Workload:               p.Workload.Name,
	}
	units, err := conversationUnits(p.Workload)
	if err != nil {
		return nil, err
	}
	r := &Realization{Head: s, workload: p.Workload, adapters: p.Adapters, units: units, order: make([]int, len(units))}
	if p.Adapters != nil {
		s.Adapters = p.Adapters.Map()
		s.AdapterAssignment = cmp.Or(p.Adapters.Assignment, AssignRandom)
	}
	for i := range r.order {
		r.order[i] = i
	}
	var windowEnd time.Duration
	if p.ClosedLoop != nil {
		if p.ClosedLoop.Users < 1 {
			return nil, fmt.Errorf("schedule: a closed loop needs at least one user")
		}
		if p.ClosedLoop.ThinkTime < 0 {
			return nil, fmt.Errorf("schedule: think time must not be negative")
		}
		if err := realizeClosedLoop(p, s, r); err != nil {
			return nil, err
		}
		windowEnd = max(p.Duration, 0)
	} else {
		s.Mode = ModeOpen
		s.Arrival = p.Arrival.Spec()
		r.offsets, windowEnd, err = p.Arrival.Offsets(p.Count, p.Duration)
		if err != nil {
			return nil, err
		}
		if err := checkWindowEnd(windowEnd, r.offsets); err != nil {
			return nil, err
		}
		if rp, ok := p.Arrival.(*Replay); ok {
			r.order = replayUnitOrder(units, rp.rowOrder())
			s.Notes = append(s.Notes, rp.notes()...)
			if p.Duration == 0 && hasSessions(units) {
				s.WindowCoversSessions = true
				s.Notes = append(s.Notes, "replayed sessions without a duration: the window closes after the last round of every session, when the run ends")
			}
		}
	}
	s.WindowMS = [2]float64{0, record.Millis(windowEnd)}
	if len(r.offsets) == 0 {
		return nil, fmt.Errorf("schedule: the arrival process produced no arrivals within the bounds")
	}
	return r, nil
}

// count is the number of entries: each arrival brings its unit's turns.
func (r *Realization) count() int {
	n := 0
	for i := range r.offsets {
		n += len(r.units[r.order[i%len(r.order)]])
	}
	return n
}

// Entries calls emit with each entry in arrival order; the entry it is
// given is reused for the next, so emit copies what it keeps.
func (r *Realization) Entries(emit func(*Entry) error) error {
	reps := make([]int, len(r.units))
	draw := newAdapterDraw(r.adapters, r.Head.Arrival.Seed)
	var e Entry
	for i, at := range r.offsets {
		unit := r.order[i%len(r.order)]
		reps[unit]++
		adapter := draw.next()
		prev := ""
		for j, row := range r.units[unit] {
			req := &r.workload.Requests[row]
			e = Entry{
				ID:           repeatID(req.ID, reps[unit]),
				Row:          row,
				Class:        req.Class,
				Adapter:      adapter,
				ScheduledMS:  record.Millis(at),
				Expect:       req.Expect,
				MaxTokens:    req.MaxTokens,
				IgnoreEOS:    req.IgnoreEOS,
				PromptTokens: req.PromptTokens,
			}
			if j > 0 {
				e.DependsOn, e.ThinkMS = prev, req.ThinkMS
				e.CarriedHistory = req.PromptTokens != nil && carriesAnswers(req)
			}
			prev = e.ID
			if err := emit(&e); err != nil {
				return err
			}
		}
	}
	return nil
}

// repeatID names the k-th use of a row.
func repeatID(id string, k int) string {
	if k == 1 {
		return id
	}
	return id + "#" + strconv.Itoa(k)
}

// conversationUnits groups rows into arrival units: a row without a
// conversation is a unit alone; a conversation is one unit, its turns in
// order. Units keep the order of their first row.
func conversationUnits(w *Workload) ([][]int, error) {
	var units [][]int
	byConv := map[string]int{}
	for i, r := range w.Requests {
		if r.Conversation == "" {
			units = append(units, []int{i})
			continue
		}
		u, ok := byConv[r.Conversation]
		if !ok {
			u = len(units)
			byConv[r.Conversation] = u
			units = append(units, nil)
		}
		units[u] = append(units[u], i)
	}
	for _, u := range units {
		sort.SliceStable(u, func(a, b int) bool { return w.Requests[u[a]].Turn < w.Requests[u[b]].Turn })
		for j := 1; j < len(u); j++ {
			if w.Requests[u[j]].Turn == w.Requests[u[j-1]].Turn {
				r := w.Requests[u[j]]
				return nil, fmt.Errorf("%s:%d: turn: conversation %q has turn %d twice", w.Name, r.Line, r.Conversation, r.Turn)
			}
		}
	}
	return units, nil
}

// hasSessions says whether any arrival unit has more than one turn.
func hasSessions(units [][]int) bool {
	for _, u := range units {
		if len(u) > 1 {
			return true
		}
	}
	return false
}

// replayUnitOrder maps replay's row order onto units.
func replayUnitOrder(units [][]int, rows []int) []int {
	unitOf := map[int]int{}
	for u, rs := range units {
		unitOf[rs[0]] = u
	}
	order := make([]int, 0, len(rows))
	for _, r := range rows {
		if u, ok := unitOf[r]; ok {
			order = append(order, u)
		}
	}
	return order
}

// Write writes the schedule as indented JSON to path and returns the
// SHA-256 of the exact bytes written.
func Write(path string, s *Schedule) (string, error) {
	f, err := CreateFile(path)
	if err != nil {
		return "", err
	}
	if err := encodeSchedule(f, s); err != nil {
		f.Abort()
		return "", err
	}
	return f.Close()
}

// Read reads a schedule written by Write and returns it
// with the SHA-256 of its bytes.
func Read(path string) (*Schedule, string, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, "", fmt.Errorf("read schedule: %w", err)
	}
	var s Schedule
	if err := json.Unmarshal(data, &s); err != nil {
		return nil, "", fmt.Errorf("%s: %w", path, record.DescribeJSONError(err))
	}
	if s.Schema != Schema {
		return nil, "", fmt.Errorf("%s: schema: want %q, got %q", path, Schema, s.Schema)
	}
	sum := sha256.Sum256(data)
	return &s, hex.EncodeToString(sum[:]), nil
}

// carriesAnswers says whether a row's messages hold an assistant message.
func carriesAnswers(r *record.Request) bool {
	for _, m := range r.Messages {
		if m.Role == "assistant" {
			return true
		}
	}
	return false
}
