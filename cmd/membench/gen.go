package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strconv"

	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/servebench/schedule"
)

// genRun writes a synthetic run directory: schedule.json and outcomes.jsonl
// as the runner writes them, for n open-loop requests at 1,000 req/s, each
// a 64-token stream of one-token events. The times are a deterministic
// function of the request index, on the records' 1 µs grid, and one
// request in fifty fails with an HTTP error.
func genRun(args []string) error {
	fs := flag.NewFlagSet("membench gen", flag.ContinueOnError)
	n := fs.Int("n", 1_000_000, "requests")
	tokens := fs.Int("tokens", 64, "tokens per stream")
	dir := fs.String("dir", "", "run directory to write (required)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *dir == "" || *n < 1 || *tokens < 2 {
		return fmt.Errorf("gen: want -dir, -n >= 1 and -tokens >= 2")
	}
	if err := os.MkdirAll(*dir, 0o755); err != nil {
		return err
	}
	s := syntheticSchedule(*n)
	if _, err := schedule.Write(filepath.Join(*dir, record.ScheduleFile), s); err != nil {
		return err
	}
	f, err := os.Create(filepath.Join(*dir, record.OutcomesFile))
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(f, 1<<20)
	enc := json.NewEncoder(w)
	for i := range *n {
		o := syntheticOutcome(i, *tokens)
		if err := enc.Encode(&o); err != nil {
			return err
		}
	}
	if err := w.Flush(); err != nil {
		return err
	}
	return f.Close()
}

// syntheticSchedule is n requests, one per millisecond.
func syntheticSchedule(n int) *schedule.Schedule {
	s := &schedule.Schedule{Schema: schedule.Schema, Mode: "open", RunID: "membench",
		WindowMS: [2]float64{0, float64(n)}, ScheduleLagToleranceMS: 20,
		Entries: make([]schedule.Entry, n)}
	for i := range n {
		s.Entries[i] = schedule.Entry{ID: "r" + strconv.Itoa(i), Row: i % 100, ScheduledMS: float64(i), MaxTokens: 64}
	}
	return s
}

// syntheticOutcome is request i's record: sent 0 to 1.5 ms late, first
// token after 80 to 300 ms, then tokens every 5 to 35 ms.
func syntheticOutcome(i, tokens int) record.Outcome {
	us := func(x int) float64 { return float64(x) / 1000 }
	a := i * 1000 // µs
	d := a + (i*7919)%1500
	slot := d
	o := record.Outcome{ID: "r" + strconv.Itoa(i), Attempt: 1, Status: record.StatusSuccess,
		ScheduledMS: us(a), SlotMS: ptr(us(slot)), SentMS: ptr(us(d))}
	if i%50 == 0 {
		o.Status = record.StatusHTTPError
		o.HTTPStatus = ptr(503)
		o.Error = "HTTP 503: overloaded"
		o.TerminalMS = us(d + 2000)
		return o
	}
	t := d + 80_000 + (i*104729)%220_000
	o.ContentMS = make([]float64, tokens)
	o.EventTokens = make([]int, tokens)
	for j := range tokens {
		o.ContentMS[j] = us(t)
		o.EventTokens[j] = 1
		t += 5_000 + ((i+1)*(j+3)*2654435761)%30_000
	}
	o.FirstContentMS, o.LastContentMS = ptr(o.ContentMS[0]), ptr(o.ContentMS[tokens-1])
	o.TerminalMS = us(t)
	o.OutputTokens = ptr(tokens)
	src := record.TokensFromLogprobs
	o.TokenCountSource = &src
	o.PromptTokens = ptr(128)
	o.HTTPStatus = ptr(200)
	o.FinishReason = "length"
	return o
}

func ptr[T any](v T) *T { return &v }
