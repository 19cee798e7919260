package sleep

import (
	"context"
	"runtime"
	"sort"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// BenchmarkLatenessUnderLoad is BenchmarkLateness on one processor
// (GOMAXPROCS 1, as a client pinned to one core runs) kept busy by 1,000
// goroutines woken in groups of 50 every millisecond, each working about
// 10 µs (half the processor), as stream readers at 50,000 events/s woken
// by the network poller are. It reports how late waits of 5 ms end with Until, with a Go timer
// alone, and with the timer then the kernel sleep (how Until finished
// before). A measurement of the machine, not a target:
//
//	go test -run '^$' -bench LatenessUnderLoad -benchtime 300x ./internal/sleep
func BenchmarkLatenessUnderLoad(b *testing.B) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	stop := startReaders(1000, 50, 10*time.Microsecond)
	defer stop()
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

// BenchmarkStartedGoroutineUnderLoad measures what a wait costs the
// others on one processor beside the readers of BenchmarkLatenessUnderLoad:
// as a dispatcher does, each iteration starts a goroutine and then waits
// until an instant 1 ms ahead (inside the margin, so that the wait goes
// straight to its finish), and reports how long the goroutine waited for
// the processor, at the median and the 99th percentile (µs), for Until,
// the timer alone and the kernel sleep. A sleeper holding the only
// processor in the kernel leaves the goroutine it just started waiting
// until the runtime's monitor takes the processor back. A measurement of
// the machine, not a target:
//
//	go test -run '^$' -bench StartedGoroutineUnderLoad -benchtime 300x ./internal/sleep
func BenchmarkStartedGoroutineUnderLoad(b *testing.B) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	stop := startReaders(1000, 50, 10*time.Microsecond)
	defer stop()
	for _, bc := range []struct {
		name string
		wait func(*time.Timer, time.Time)
	}{
		{"until", func(t *time.Timer, at time.Time) { Until(context.Background(), t, at) }},
		{"timer", func(t *time.Timer, at time.Time) { onTimer(context.Background(), t, time.Until(at)) }},
		{"kernel", func(_ *time.Timer, at time.Time) { kernelSleep(at) }},
	} {
		b.Run(bc.name, func(b *testing.B) {
			timer := time.NewTimer(time.Hour)
			defer timer.Stop()
			waited := make([]float64, b.N)
			var wg sync.WaitGroup
			for i := range b.N {
				started := time.Now()
				wg.Add(1)
				go func() {
					defer wg.Done()
					waited[i] = float64(time.Since(started)) / float64(time.Microsecond)
				}()
				bc.wait(timer, started.Add(time.Millisecond))
			}
			wg.Wait()
			sort.Float64s(waited)
			b.ReportMetric(waited[len(waited)/2], "p50-start-µs")
			b.ReportMetric(waited[len(waited)*99/100], "p99-start-µs")
		})
	}
}

// startReaders starts n goroutines that a driver wakes in groups of group
// every millisecond, in turn; each works for work when woken. stop ends
// them.
func startReaders(n, group int, work time.Duration) (stop func()) {
	var done atomic.Bool
	var wg sync.WaitGroup
	wake := make([]chan struct{}, n)
	for i := range wake {
		wake[i] = make(chan struct{}, 1)
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range wake[i] {
				spin(work)
			}
		}()
	}
	wg.Add(1)
	go func() {
		defer wg.Done()
		tick := time.NewTicker(time.Millisecond)
		defer tick.Stop()
		for next := 0; !done.Load(); {
			<-tick.C
			for range group {
				select {
				case wake[next] <- struct{}{}:
				default:
				}
				next = (next + 1) % n
			}
		}
		for _, c := range wake {
			close(c)
		}
	}()
	return func() { done.Store(true); wg.Wait() }
}

// spin works for about d.
func spin(d time.Duration) {
	for end := time.Now().Add(d); time.Now().Before(end); {
	}
}
