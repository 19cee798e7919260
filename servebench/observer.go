package servebench

import (
	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/servebench/schedule"
)

// Observer watches a run as it goes, for display or live bookkeeping. The
// measurement core draws nothing itself: the servebench command's progress
// bar is one Observer.
//
// Ended is called from the goroutines that send requests, concurrently, so an
// Observer must be safe for concurrent use; every method must return quickly,
// since it runs on the dispatch path.
type Observer interface {
	// Started is called once, right before the first measured request is
	// sent, with the number of scheduled requests.
	Started(scheduled int)
	// Ended is called once per scheduled request, right after its terminal
	// record has been handed to the outcome writer. o must not be kept or
	// changed after Ended returns.
	Ended(o *record.Outcome)
	// Finished is called once, after the last terminal record and before
	// scoring.
	Finished()
}

// LoadObserver is an Observer that is also told which load a run offers
// and when each request comes due, so that it can follow the offered load
// and the work outstanding live (package servebench/livemetrics is one).
// The dispatcher finds it by a type assertion on RunConfig.Observer.
type LoadObserver interface {
	Observer
	// LoadPoint is called once per run, right before Started, with the
	// arrival the schedule was realized from: the offered rate of an open
	// loop, or the users of a closed one.
	LoadPoint(arrival schedule.ArrivalSpec)
	// Due is called once per scheduled request, before its Ended, with
	// its class ("" when none): as the request's time comes, before it
	// waits for a client concurrency slot, or, for a request the run ended
	// before its time, right before its not_sent record. So the requests
	// Due was called for and Ended was not are exactly those outstanding.
	Due(class string)
}

// AdapterDueObserver is a LoadObserver that also wants each due request's
// LoRA adapter: in a run with an adapter mix the dispatcher calls DueAdapter
// instead of Due, with the request's class and adapter ("base" for the base
// model); without a mix it calls Due, as for any LoadObserver.
type AdapterDueObserver interface {
	LoadObserver
	DueAdapter(class, adapter string)
}

// tellDue calls o's DueAdapter when it has one and the request has an
// adapter, else its Due.
func tellDue(o LoadObserver, class, adapter string) {
	if ao, ok := o.(AdapterDueObserver); ok && adapter != "" {
		ao.DueAdapter(class, adapter)
		return
	}
	o.Due(class)
}

// Observers combines observers into one that tells each in turn; nil ones
// are skipped. The result is an AdapterDueObserver, which passes LoadPoint
// and Due (DueAdapter) to those that are LoadObservers (AdapterDueObservers).
func Observers(obs ...Observer) Observer {
	var m multiObserver
	for _, o := range obs {
		if o != nil {
			m = append(m, o)
		}
	}
	return m
}

// multiObserver is what Observers returns.
type multiObserver []Observer

func (m multiObserver) Started(scheduled int) {
	for _, o := range m {
		o.Started(scheduled)
	}
}

func (m multiObserver) Ended(out *record.Outcome) {
	for _, o := range m {
		o.Ended(out)
	}
}

func (m multiObserver) Finished() {
	for _, o := range m {
		o.Finished()
	}
}

func (m multiObserver) LoadPoint(a schedule.ArrivalSpec) {
	for _, o := range m {
		if lo, ok := o.(LoadObserver); ok {
			lo.LoadPoint(a)
		}
	}
}

func (m multiObserver) Due(class string) {
	for _, o := range m {
		if lo, ok := o.(LoadObserver); ok {
			lo.Due(class)
		}
	}
}

func (m multiObserver) DueAdapter(class, adapter string) {
	for _, o := range m {
		if lo, ok := o.(LoadObserver); ok {
			tellDue(lo, class, adapter)
		}
	}
}
