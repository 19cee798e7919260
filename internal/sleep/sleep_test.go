package sleep

import (
	"context"
	"sort"
	"testing"
	"time"
)

// TestUntilNeverReturnsEarly waits for instants in the past, within the
// fine margin and beyond it, and checks that each wait ends at or after its
// instant: a dispatcher must never send before the schedule.
func TestUntilNeverReturnsEarly(t *testing.T) {
	timer := time.NewTimer(time.Hour)
	defer timer.Stop()
	for _, d := range []time.Duration{-time.Millisecond, 0, 50 * time.Microsecond, 700 * time.Microsecond,
		margin, 3 * time.Millisecond, 12 * time.Millisecond} {
		at := time.Now().Add(d)
		if !Until(context.Background(), timer, at) {
			t.Fatalf("wait of %v: reported cancelled with a live context", d)
		}
		if now := time.Now(); now.Before(at) {
			t.Errorf("wait of %v returned %v before its instant", d, at.Sub(now))
		}
	}
}

// TestUntilOnTheTimerAloneNeverReturnsEarly fills every fine slot, so that
// the wait finishes on the timer, and checks the same.
func TestUntilOnTheTimerAloneNeverReturnsEarly(t *testing.T) {
	for range cap(fineSlots) {
		fineSlots <- struct{}{}
	}
	defer func() {
		for range cap(fineSlots) {
			<-fineSlots
		}
	}()
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
// the 99th percentile (in µs), with Until and with a Go timer alone. It is
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

// withLateness sets the moving averages for a test and restores them.
func withLateness(t *testing.T, timerLate, kernelLate time.Duration) {
	t.Helper()
	oldTimer, oldKernel, oldWaits := lateness[finishTimer].Load(), lateness[finishKernel].Load(), waits.Load()
	lateness[finishTimer].Store(int64(timerLate))
	lateness[finishKernel].Store(int64(kernelLate))
	waits.Store(0)
	t.Cleanup(func() {
		lateness[finishTimer].Store(oldTimer)
		lateness[finishKernel].Store(oldKernel)
		waits.Store(oldWaits)
	})
}

// TestChooseFinishTakesTheLessLate finishes on the timer when the kernel
// sleep has lately been later, and the other way round, except one wait in
// exploreEvery: two of 512 waits.
func TestChooseFinishTakesTheLessLate(t *testing.T) {
	for _, c := range []struct {
		timerLate, kernelLate time.Duration
		best                  int
	}{
		{100 * time.Microsecond, 5 * time.Millisecond, finishTimer},
		{600 * time.Microsecond, 40 * time.Microsecond, finishKernel},
		{0, 0, finishKernel}, // nothing measured yet: the kernel first
	} {
		withLateness(t, c.timerLate, c.kernelLate)
		other := 0
		for range 2 * exploreEvery {
			if chooseFinish() != c.best {
				other++
			}
		}
		if other != 2 {
			t.Errorf("timer %v late, kernel %v: %d of %d waits went the other way, want 2", c.timerLate, c.kernelLate, other, 2*exploreEvery)
		}
	}
}

// TestObserveAveragesWithWeightOneEighth moves the average an eighth of
// the way to each new lateness: 0 → 800 µs gives 100 µs, then 800 µs
// again gives 187.5 µs.
func TestObserveAveragesWithWeightOneEighth(t *testing.T) {
	withLateness(t, 0, 0)
	observe(finishTimer, 800*time.Microsecond)
	if got := time.Duration(lateness[finishTimer].Load()); got != 100*time.Microsecond {
		t.Fatalf("after one wait 800 µs late: %v, want 100 µs", got)
	}
	observe(finishTimer, 800*time.Microsecond)
	if got := time.Duration(lateness[finishTimer].Load()); got != 187500*time.Nanosecond {
		t.Fatalf("after two: %v, want 187.5 µs", got)
	}
	if lateness[finishKernel].Load() != 0 {
		t.Error("the kernel's average moved")
	}
}

// TestUntilNeverReturnsEarlyEitherWay repeats the never-early check with
// the timer preferred and with the kernel preferred.
func TestUntilNeverReturnsEarlyEitherWay(t *testing.T) {
	for _, prefer := range []string{"timer", "kernel"} {
		if prefer == "timer" {
			withLateness(t, 0, time.Second)
		} else {
			withLateness(t, time.Second, 0)
		}
		timer := time.NewTimer(time.Hour)
		for _, d := range []time.Duration{300 * time.Microsecond, margin, 4 * time.Millisecond} {
			at := time.Now().Add(d)
			if !Until(context.Background(), timer, at) {
				t.Fatalf("%s preferred, wait of %v: reported cancelled", prefer, d)
			}
			if now := time.Now(); now.Before(at) {
				t.Errorf("%s preferred, wait of %v returned %v early", prefer, d, at.Sub(now))
			}
		}
		timer.Stop()
	}
}
