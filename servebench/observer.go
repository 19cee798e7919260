package servebench

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
	Ended(o *Outcome)
	// Finished is called once, after the last terminal record and before
	// scoring.
	Finished()
}
