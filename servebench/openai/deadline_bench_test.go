package openai_test

import (
	"slices"
	"testing"
	"time"

	"github.com/servebench/servebench/servebench/record"
)

// BenchmarkDeadlineFiringLateness measures how late each deadline fires:
// terminal_ms - timeout_due_ms of requests that stall at the phase the
// deadline covers, against a loopback server. It reports the median and
// the largest lateness in milliseconds. The unit tests assert which
// deadline fires and when it was due; how promptly the timer wakes is a
// property of the machine and belongs here.
//
//	go test ./servebench -run '^$' -bench DeadlineFiringLateness -benchtime 20x
func BenchmarkDeadlineFiringLateness(b *testing.B) {
	ms := time.Millisecond
	for _, bc := range []struct {
		name                    string
		phase                   stallPhase
		firstToken, idle, total time.Duration
	}{
		{name: "first_token/before_headers", phase: stallBeforeHeaders, firstToken: 20 * ms},
		{name: "idle/mid_stream", phase: stallMidStream, idle: 20 * ms},
		{name: "idle_beside_long_total/mid_stream", phase: stallMidStream, idle: 20 * ms, total: 5 * time.Minute},
		{name: "idle_beside_total_1.5x/mid_stream", phase: stallMidStream, idle: 20 * ms, total: 30 * ms},
		{name: "total/mid_stream", phase: stallMidStream, total: 20 * ms},
	} {
		b.Run(bc.name, func(b *testing.B) {
			srv, _, _ := stallServer(b, bc.phase)
			c := chatClient()
			c.BaseURL = srv.URL
			c.FirstTokenTimeout, c.IdleTimeout, c.TotalTimeout = bc.firstToken, bc.idle, bc.total
			var late []float64
			for b.Loop() {
				out := &record.Outcome{ID: "r1", Attempt: 1}
				c.Do(b.Context(), srv.Epoch, chatRow(), "bench/r1/1", out)
				if out.Status != record.StatusTimeout || out.TimeoutDueMS == nil {
					b.Fatalf("status %s (%s), want a timeout", out.Status, out.Error)
				}
				late = append(late, out.TerminalMS-*out.TimeoutDueMS)
			}
			slices.Sort(late)
			b.ReportMetric(late[len(late)/2], "median_late_ms")
			b.ReportMetric(late[len(late)-1], "max_late_ms")
		})
	}
}
