package servebench

import (
	"sync"
	"time"
)

// unitWorkers runs an open loop's units on goroutines that outlive their
// unit: a unit goes to a worker waiting for one, or to a new worker when
// none is free, and a worker whose unit has ended waits for the next.
//
// A goroutine started for every request would begin on the runtime's
// smallest stack and copy it each time the request's calls outgrow it,
// each copy walking every frame: at 300 requests a second, 1.8 % of a
// phase's CPU samples against 0.3 % with workers (docs/performance.md).
// A worker keeps the stack it grew, unless the
// garbage collector halves it while the worker waits. Handing a unit to a
// waiting worker readies it as starting a goroutine does, to run next on
// the dispatcher's processor, so a request starts as soon as before.
type unitWorkers struct {
	run   func(u planUnit, at time.Time)
	units chan unitJob // unbuffered: a send succeeds only into a waiting worker
	wg    sync.WaitGroup
}

// unitJob is a unit and its first request's instant.
type unitJob struct {
	u  planUnit
	at time.Time
}

// newUnitWorkers runs each unit it is given with run.
func newUnitWorkers(run func(u planUnit, at time.Time)) *unitWorkers {
	return &unitWorkers{run: run, units: make(chan unitJob)}
}

// start runs u, due at at, on a free worker or a new one; it does not
// wait for the unit.
func (w *unitWorkers) start(u planUnit, at time.Time) {
	job := unitJob{u: u, at: at}
	select {
	case w.units <- job:
	default:
		w.wg.Add(1)
		go w.work(job)
	}
}

// work runs job, then every unit handed to it, until close.
func (w *unitWorkers) work(job unitJob) {
	defer w.wg.Done()
	for ok := true; ok; job, ok = <-w.units {
		w.run(job.u, job.at)
	}
}

// close lets the workers go once their units have ended, and waits for
// them. No unit may be started after it.
func (w *unitWorkers) close() {
	close(w.units)
	w.wg.Wait()
}
