package servebench

import (
	"sync"
	"testing"
	"time"
)

// TestUnitWorkersRunEveryUnitOnce starts units that overlap and checks
// that each ran once, with its instant, and that close returned only after
// the last had ended.
func TestUnitWorkersRunEveryUnitOnce(t *testing.T) {
	base := time.Unix(1000, 0)
	var mu sync.Mutex
	ran := map[int]time.Time{}
	release := make(chan struct{})
	w := newUnitWorkers(func(u planUnit, at time.Time) {
		if u.first%10 == 0 {
			<-release // some units are still running when the loop ends
		}
		mu.Lock()
		ran[u.first] = at
		mu.Unlock()
	})
	for i := range 100 {
		w.start(planUnit{first: i}, base.Add(time.Duration(i)*time.Millisecond))
	}
	// close must not return before the ten held units end: the count of
	// units that had ended when it returned says so whatever the timing,
	// and the pause before their release gives an early return the time
	// to show.
	endedAtClose := make(chan int, 1)
	go func() {
		w.close()
		mu.Lock()
		endedAtClose <- len(ran)
		mu.Unlock()
	}()
	select {
	case n := <-endedAtClose:
		t.Fatalf("close returned with %d units ended, while ten were held", n)
	case <-time.After(20 * time.Millisecond):
	}
	close(release)
	if n := <-endedAtClose; n != 100 {
		t.Fatalf("close returned with %d units ended, want 100", n)
	}
	for i, at := range ran {
		if want := base.Add(time.Duration(i) * time.Millisecond); !at.Equal(want) {
			t.Fatalf("unit %d ran with instant %v, want %v", i, at, want)
		}
	}
}

// TestUnitWorkersReuseAWaitingWorker checks that the worker of a unit
// that has ended waits for the next: only a waiting worker can take a
// unit from the unbuffered channel, so the hand-over proves it, and the
// unit then runs on it.
func TestUnitWorkersReuseAWaitingWorker(t *testing.T) {
	ended := make(chan struct{}, 2)
	w := newUnitWorkers(func(planUnit, time.Time) { ended <- struct{}{} })
	w.start(planUnit{first: 0}, time.Time{})
	<-ended
	// The worker goes back to wait right after its unit; hand the next one
	// over as start does, retrying until it waits (bounded).
	handed := false
	for deadline := time.Now().Add(10 * time.Second); !handed && time.Now().Before(deadline); {
		select {
		case w.units <- unitJob{u: planUnit{first: 1}}:
			handed = true
		default:
			time.Sleep(time.Millisecond)
		}
	}
	if !handed {
		t.Fatal("the first unit's worker never waited for another")
	}
	<-ended
	w.close()
}
