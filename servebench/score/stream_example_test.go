package score_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/servebench/schedule"
	"github.com/servebench/servebench/servebench/score"
)

// Re-score a run directory in bounded memory: the report keeps the
// distributions, and each request's entry goes to the writer as a line.
func ExampleRunDirTo() {
	dir, err := os.MkdirTemp("", "servebench-example-")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(dir)
	sched := schedule.Schedule{Schema: schedule.Schema, Mode: schedule.ModeOpen, WindowMS: [2]float64{0, 1000},
		ScheduleLagToleranceMS: 20, Entries: []schedule.Entry{{ID: "r1", ScheduledMS: 0}, {ID: "r2", ScheduledMS: 500}}}
	data, _ := json.Marshal(&sched)
	_ = os.WriteFile(filepath.Join(dir, record.ScheduleFile), data, 0o644)
	var lines []byte
	for _, o := range []record.Outcome{
		{ID: "r1", Attempt: 1, Status: record.StatusSuccess, ScheduledMS: 0, SentMS: ptr(0.0), ContentMS: []float64{240, 280, 320}, TerminalMS: 330, OutputTokens: ptr(3)},
		{ID: "r2", Attempt: 1, Status: record.StatusSuccess, ScheduledMS: 500, SentMS: ptr(500.0), ContentMS: []float64{620, 700}, TerminalMS: 710, OutputTokens: ptr(2)},
	} {
		b, _ := json.Marshal(&o)
		lines = append(append(lines, b...), '\n')
	}
	_ = os.WriteFile(filepath.Join(dir, record.OutcomesFile), lines, 0o644)

	var requests bytes.Buffer
	r, err := score.RunDirTo(dir, score.Options{}, &requests)
	if err != nil {
		panic(err)
	}
	// TTFTs 240 and 120 ms: nearest-rank p50 is the first of the two sorted.
	fmt.Println("offered", r.Offered, "p50 TTFT", *r.Percentiles[record.MetricTTFT].P50, "ms; entries kept:", len(r.Requests))
	fmt.Println("request lines:", bytes.Count(requests.Bytes(), []byte("\n")))
	// Output:
	// offered 2 p50 TTFT 120 ms; entries kept: 0
	// request lines: 2
}

func ptr[T any](v T) *T { return &v }
