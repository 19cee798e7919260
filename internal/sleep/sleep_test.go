package sleep

import (
	"context"
	"sort"
	"testing"
	"time"
)

// TestUntilNeverReturnsEarly waits for instants in the past, within the
// fine margin, beyond it and beyond alarmWithin, and checks that each wait ends at or after its
// instant: a dispatcher must never send before the schedule.
func TestUntilNeverReturnsEarly(t *testing.T) {
	timer := time.NewTimer(time.Hour)
	defer timer.Stop()
	for _, d := range []time.Duration{-time.Millisecond, 0, 50 * time.Microsecond, 700 * time.Microsecond,
		margin, 3 * time.Millisecond, 12 * time.Millisecond, alarmWithin + 3*time.Millisecond} {
		at := time.Now().Add(d)
		if !Until(context.Background(), timer, at) {
			t.Fatalf("wait of %v: reported cancelled with a live context", d)
		}
		if now := time.Now(); now.Before(at) {
			t.Errorf("wait of %v returned %v before its instant", d, at.Sub(now))
		}
	}
}

// holdAlarms takes every alarm there is for the test, so that waits
// finish on the timer, and gives them back at its end.
func holdAlarms(t *testing.T) {
	t.Helper()
	var held []*alarm
	for a := takeAlarm(); a != nil; a = takeAlarm() {
		held = append(held, a)
	}
	t.Cleanup(func() {
		for _, a := range held {
			putAlarm(a)
		}
	})
}

// TestUntilOnTheTimerAloneNeverReturnsEarly holds every alarm, so that
// the wait finishes on the timer, and checks the same.
func TestUntilOnTheTimerAloneNeverReturnsEarly(t *testing.T) {
	holdAlarms(t)
	if a := takeAlarm(); a != nil {
		t.Fatal("an alarm was made beyond the slots")
	}
	timer := time.NewTimer(time.Hour)
	defer timer.Stop()
	for _, d := range []time.Duration{300 * time.Microsecond, 5 * time.Millisecond} {
		at := time.Now().Add(d)
		if !Until(context.Background(), timer, at) {
			t.Fatalf("wait of %v: reported cancelled with a live context", d)
		}
		if now := time.Now(); now.Before(at) {
			t.Errorf("wait of %v returned %v before its instant", d, at.Sub(now))
		}
	}
}

// TestUntilStopsWhenCancelled cancels a wait of an hour and one whose
// context is already done; both report the cancellation.
func TestUntilStopsWhenCancelled(t *testing.T) {
	timer := time.NewTimer(time.Hour)
	defer timer.Stop()
	done, cancel := context.WithCancel(context.Background())
	cancel()
	if Until(done, timer, time.Now().Add(-time.Second)) {
		t.Error("a past instant with a done context reported live")
	}
	if Until(done, timer, time.Now().Add(time.Hour)) {
		t.Error("a done context reported live")
	}
	if Until(done, timer, time.Now().Add(alarmWithin/2)) {
		t.Error("a done context reported live for a wait that goes to the alarm at once")
	}
	ctx, cancel := context.WithCancel(context.Background())
	result := make(chan bool, 1)
	go func() { result <- Until(ctx, timer, time.Now().Add(time.Hour)) }()
	cancel()
	select {
	case live := <-result:
		if live {
			t.Error("a cancelled wait reported live")
		}
	case <-time.After(time.Minute):
		t.Fatal("a cancelled wait of an hour did not return within a minute")
	}
}

// BenchmarkLateness reports how late waits of 5 ms end, at the median and
// the 99th percentile (in µs), with Until, with a Go timer alone, and with the timer then a sleep
// in the kernel (what Until did before). It is
// a measurement of the machine, not a target:
//
//	go test -run '^$' -bench Lateness -benchtime 400x ./internal/sleep
func BenchmarkLateness(b *testing.B) {
	for _, bc := range []struct {
		name string
		wait func(*time.Timer, time.Time)
	}{
		{"until", func(t *time.Timer, at time.Time) { Until(context.Background(), t, at) }},
		{"timer", func(t *time.Timer, at time.Time) { onTimer(context.Background(), t, time.Until(at)) }},
		{"kernel", func(t *time.Timer, at time.Time) {
			onTimer(context.Background(), t, time.Until(at)-margin)
			kernelSleep(at)
		}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			timer := time.NewTimer(time.Hour)
			defer timer.Stop()
			late := make([]float64, 0, b.N)
			for range b.N {
				at := time.Now().Add(5 * time.Millisecond)
				bc.wait(timer, at)
				late = append(late, float64(time.Since(at))/float64(time.Microsecond))
			}
			sort.Float64s(late)
			b.ReportMetric(late[len(late)/2], "p50-late-µs")
			b.ReportMetric(late[len(late)*99/100], "p99-late-µs")
		})
	}
}
