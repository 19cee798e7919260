package score

import "github.com/servebench/servebench/servebench/schedule"

// entryPrefetch reads a schedule's entries on a goroutine of its own, in
// batches, ahead of the window that joins them to outcome lines, so that
// decoding schedule.json (and hashing its IDs for the repeated-ID check)
// runs beside the scoring. Items come in schedule order; the last one
// read carries the end of the entries or the error that ended them.
type entryPrefetch struct {
	batches chan []prefetchedEntry
	free    chan []prefetchedEntry
	quit    chan struct{}
	done    chan struct{}
	cur     []prefetchedEntry
	spent   []prefetchedEntry
	ended   bool
}

// prefetchedEntry is one entry as the window takes it, or the end of the
// entries (end) with the error that ended them, if any.
type prefetchedEntry struct {
	entry *windowEntry
	end   bool
	err   error
}

// The prefetch's batches: prefetchBatchSize entries each, prefetchBatches
// of them in flight.
const (
	prefetchBatchSize = 512
	prefetchBatches   = 4
)

// startEntryPrefetch starts reading st; ids, when set, takes every ID.
func startEntryPrefetch(st *schedule.EntryStream, ids *distinctIDs) *entryPrefetch {
	p := &entryPrefetch{batches: make(chan []prefetchedEntry, prefetchBatches), free: make(chan []prefetchedEntry, prefetchBatches+1),
		quit: make(chan struct{}), done: make(chan struct{})}
	for range prefetchBatches + 1 {
		p.free <- make([]prefetchedEntry, 0, prefetchBatchSize)
	}
	go p.read(st, ids)
	return p
}

// read decodes entries until the end, an error or stop.
func (p *entryPrefetch) read(st *schedule.EntryStream, ids *distinctIDs) {
	defer close(p.done)
	defer close(p.batches)
	var e schedule.Entry
	for {
		var b []prefetchedEntry
		select {
		case b = <-p.free:
		case <-p.quit:
			return
		}
		b = b[:0]
		last := false
		for len(b) < prefetchBatchSize && !last {
			it := prefetchOne(st, &e)
			if it.entry != nil && ids != nil {
				ids.add(it.entry.id)
			}
			last = it.end
			b = append(b, it)
		}
		select {
		case p.batches <- b:
		case <-p.quit:
			return
		}
		if last {
			return
		}
	}
}

// prefetchOne reads the next entry into e and makes its window entry; a
// conversation's turn declines the window, and an entry whose audited
// fields do not fit declines the stream.
func prefetchOne(st *schedule.EntryStream, e *schedule.Entry) prefetchedEntry {
	ok, err := st.Next(e)
	if err != nil || !ok {
		return prefetchedEntry{end: true, err: err}
	}
	if e.DependsOn != "" {
		return prefetchedEntry{end: true, err: errWindowDeclined} // a conversation: the compact path numbers its turns
	}
	audited, fits := schedule.AuditedOf(e)
	if !fits {
		return prefetchedEntry{end: true, err: schedule.ErrStreamDeclined}
	}
	return prefetchedEntry{entry: &windowEntry{index: st.Len() - 1, id: e.ID, scheduled: e.ScheduledMS, class: e.Class,
		adapter: e.Adapter, audited: audited}}
}

// next is the next item: an entry, or the end with its error (and the
// end again on every later call).
func (p *entryPrefetch) next() prefetchedEntry {
	for len(p.cur) == 0 {
		if p.ended {
			return prefetchedEntry{end: true}
		}
		if p.spent != nil {
			p.free <- p.spent[:0]
			p.spent = nil
		}
		b, ok := <-p.batches
		if !ok {
			p.ended = true
			return prefetchedEntry{end: true}
		}
		p.cur, p.spent = b, b
	}
	it := p.cur[0]
	p.cur = p.cur[1:]
	if it.end {
		p.ended = true
	}
	return it
}

// stop ends the reading and waits for the goroutine, which must be done
// before the stream is closed or its hash read.
func (p *entryPrefetch) stop() {
	select {
	case <-p.quit:
	default:
		close(p.quit)
	}
	for range p.batches {
	}
	<-p.done
}
