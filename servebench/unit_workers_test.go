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
	closed := make(chan struct{})
	go func() { w.close(); close(closed) }()
	select {
	case <-closed:
		t.Fatal("close returned while units were still running")
	case <-time.After(20 * time.Millisecond):
	}
	close(release)
	<-closed
	if len(ran) != 100 {
		t.Fatalf("%d units ran, want 100", len(ran))
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
