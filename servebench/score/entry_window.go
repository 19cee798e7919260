package score

import (
	"errors"
	"slices"

	"github.com/servebench/servebench/servebench/schedule"
)

// errWindowDeclined says the windowed join leaves the run to the compact
// schedule: a conversation, a retried request, a repeated or unknown ID,
// or outcome lines too far out of schedule order. The compact path then
// scores it, or declines it in turn.
var errWindowDeclined = errors.New("declined by the windowed join")

// windowLimit bounds the entries the window holds at once (a variable so
// that tests can reach it with few entries). A runner's outcome lines come
// in the order requests end, so the window holds about the requests that
// were in flight when a line was written.
var windowLimit = 1 << 18

// windowEntry is what scoring needs of one schedule entry.
type windowEntry struct {
	index     int
	id        string
	scheduled float64
	class     string
	adapter   string
	audited   schedule.AuditedEntry
}

// entryWindow joins outcome lines to schedule entries by ID without
// holding the schedule: it reads schedule.json in order only as far as
// the lines need, and holds the entries read but not yet taken by a line.
type entryWindow struct {
	st      *schedule.EntryStream
	pending map[string]*windowEntry
	ids     *distinctIDs // nil: the IDs are not checked
	ahead   *entryPrefetch
	ended   bool
}

// openWindow opens the schedule at path; check makes it check that no two
// entries share an ID.
func openWindow(path string, check bool) (*entryWindow, error) {
	st, err := schedule.OpenEntries(path)
	if err != nil {
		return nil, err
	}
	w := &entryWindow{st: st, pending: map[string]*windowEntry{}}
	if check {
		w.ids = newDistinctIDs()
	}
	w.ahead = startEntryPrefetch(st, w.ids)
	return w, nil
}

// close stops the reading ahead and closes the schedule file.
func (w *entryWindow) close() {
	w.ahead.stop()
	_ = w.st.Close()
}

// pull reads the next entry into the window; false at the end of the
// schedule.
func (w *entryWindow) pull() (bool, error) {
	if w.ended {
		return false, nil
	}
	it := w.ahead.next()
	if it.end {
		w.ended = true
		return false, it.err
	}
	e := it.entry
	if _, dup := w.pending[e.id]; dup || len(w.pending) >= windowLimit {
		return false, errWindowDeclined
	}
	w.pending[e.id] = e
	return true, nil
}

// take finds the entry with this ID and removes it from the window,
// reading the schedule on as far as it must; false when no entry read or
// still to read has it (an unknown ID, or one a line already took).
func (w *entryWindow) take(id []byte) (*windowEntry, bool, error) {
	for {
		if e, ok := w.pending[string(id)]; ok {
			delete(w.pending, e.id)
			return e, true, nil
		}
		more, err := w.pull()
		if err != nil || !more {
			return nil, false, err
		}
	}
}

// rest calls f with every entry no line took, in schedule order: those
// in the window, then the rest of the schedule. Then the IDs are checked.
func (w *entryWindow) rest(f func(*windowEntry) error) error {
	left := make([]*windowEntry, 0, len(w.pending))
	for _, e := range w.pending {
		left = append(left, e)
	}
	slices.SortFunc(left, func(a, b *windowEntry) int { return a.index - b.index })
	for _, e := range left {
		delete(w.pending, e.id)
		if err := f(e); err != nil {
			return err
		}
	}
	for {
		more, err := w.pull()
		if err != nil {
			return err
		}
		if !more {
			break
		}
		for _, e := range w.pending { // the one entry just read
			delete(w.pending, e.id)
			if err := f(e); err != nil {
				return err
			}
		}
	}
	if w.ids != nil {
		unique, err := w.ids.unique()
		if err != nil {
			return err
		}
		if !unique {
			return errWindowDeclined
		}
	}
	return nil
}
