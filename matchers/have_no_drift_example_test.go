package matchers_test

import (
	"fmt"
	"math"
	"strconv"
	"time"

	"github.com/servebench/servebench/matchers"
	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/servebench/schedule"
	"github.com/servebench/servebench/servebench/score"
)

// A run whose TTFT grows 10 ms every second, from 100 ms, over eight 1 s
// intervals: p99 TTFT grows 70% between the first and last interval.
func ExampleHaveNoDrift() {
	s := &schedule.Schedule{Schema: schedule.Schema, Mode: schedule.ModeOpen, WindowMS: [2]float64{0, 8000}, ScheduleLagToleranceMS: 20}
	var outs []record.Outcome
	for i := range 160 {
		id := "d" + strconv.Itoa(i)
		a := float64(i * 50)
		s.Entries = append(s.Entries, schedule.Entry{ID: id, ScheduledMS: a})
		f := a + 100 + 10*math.Floor(a/1000)
		two := 2
		outs = append(outs, record.Outcome{ID: id, Attempt: 1, Status: record.StatusSuccess, ScheduledMS: a, SentMS: &a,
			ContentMS: []float64{f, f + 20}, TerminalMS: f + 30, OutputTokens: &two})
	}
	r, err := score.Outcomes(s, outs, score.Options{DriftInterval: time.Second})
	if err != nil {
		panic(err)
	}
	ok, _ := matchers.HaveNoDrift(0.2).Match(r)
	fmt.Println("no drift above 20%:", ok)
	fmt.Println(r.Drift.Trends[0].Finding)
	// Output:
	// no drift above 20%: false
	// ttft_p99_ms changed +70.0% over 7 s (95% interval +70.0% to +70.0%), from 100 ms
}
