package sleep

import (
	"context"
	"sync"
	"testing"
	"time"
)

// TestAlarmWaitEndsAtOrAfterItsInstant waits on one alarm for instants
// from the past to 3 ms ahead, reusing it, and checks that each wait
// reports no error and ends at or after its instant, also after a wait the
// read deadline ended before the timerfd fired.
func TestAlarmWaitEndsAtOrAfterItsInstant(t *testing.T) {
	a := takeAlarm()
	if a == nil {
		t.Fatal("no alarm on Linux")
	}
	defer putAlarm(a)
	for _, d := range []time.Duration{-time.Millisecond, 0, 20 * time.Microsecond, 300 * time.Microsecond,
		time.Millisecond, 3 * time.Millisecond, 100 * time.Microsecond} {
		at := time.Now().Add(d)
		if err := a.wait(at); err != nil {
			t.Fatalf("wait of %v: %v", d, err)
		}
		if now := time.Now(); now.Before(at) {
			t.Errorf("wait of %v returned %v before its instant", d, at.Sub(now))
		}
	}
}

// TestConcurrentWaitsShareTheAlarms runs more concurrent waits than there
// are alarms: each ends at or after its instant, and no more than
// alarmSlots alarms are ever made.
func TestConcurrentWaitsShareTheAlarms(t *testing.T) {
	const n = 3 * alarmSlots
	early := make(chan time.Duration, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			timer := time.NewTimer(time.Hour)
			defer timer.Stop()
			at := time.Now().Add(time.Duration(i%4+1) * 500 * time.Microsecond)
			Until(context.Background(), timer, at)
			if now := time.Now(); now.Before(at) {
				early <- at.Sub(now)
			}
			if made := alarmsMade.Load(); made > alarmSlots {
				early <- time.Duration(-made)
			}
		}()
	}
	wg.Wait()
	close(early)
	for d := range early {
		t.Errorf("a wait returned %v before its instant (negative: alarms made)", d)
	}
}
