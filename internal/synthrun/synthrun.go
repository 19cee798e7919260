// Package synthrun writes synthetic run directories in the runner's
// format, for the scorer's benchmarks and cmd/membench: open-loop requests
// at 1,000 req/s, each a stream of one-token events, one in fifty failing
// with an HTTP error. The times are a deterministic function of the
// request index, on the records' 1 µs grid.
package synthrun

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"

	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/servebench/schedule"
)

// Write writes schedule.json and outcomes.jsonl for n requests of tokens
// tokens each into dir, which must exist.
func Write(dir string, n, tokens int) error {
	if _, err := schedule.Write(filepath.Join(dir, record.ScheduleFile), Schedule(n, tokens)); err != nil {
		return err
	}
	f, err := os.Create(filepath.Join(dir, record.OutcomesFile))
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(f, 1<<20)
	enc := json.NewEncoder(w)
	for i := range n {
		o := Outcome(i, tokens)
		if err := enc.Encode(&o); err != nil {
			f.Close()
			return err
		}
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// Schedule is n requests, one per millisecond, asking for tokens tokens.
func Schedule(n, tokens int) *schedule.Schedule {
	s := &schedule.Schedule{Schema: schedule.Schema, Mode: "open", RunID: "membench",
		WindowMS: [2]float64{0, float64(n)}, ScheduleLagToleranceMS: 20,
		Entries: make([]schedule.Entry, n)}
	for i := range n {
		s.Entries[i] = schedule.Entry{ID: "r" + strconv.Itoa(i), Row: i % 100, ScheduledMS: float64(i), MaxTokens: tokens}
	}
	return s
}

// Outcome is request i's record: sent 0 to 1.5 ms late, first token after
// 80 to 300 ms, then tokens every 5 to 35 ms; every fiftieth request
// fails with HTTP 503 after 2 ms.
func Outcome(i, tokens int) record.Outcome {
	us := func(x int) float64 { return float64(x) / 1000 }
	a := i * 1000 // µs
	d := a + (i*7919)%1500
	slot := d
	o := record.Outcome{ID: "r" + strconv.Itoa(i), Attempt: 1, Status: record.StatusSuccess,
		ScheduledMS: us(a), SlotMS: new(us(slot)), SentMS: new(us(d))}
	if i%50 == 0 {
		o.Status = record.StatusHTTPError
		o.HTTPStatus = new(503)
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
	o.FirstContentMS, o.LastContentMS = new(o.ContentMS[0]), new(o.ContentMS[tokens-1])
	o.TerminalMS = us(t)
	o.OutputTokens = new(tokens)
	src := record.TokensFromLogprobs
	o.TokenCountSource = &src
	o.PromptTokens = new(128)
	o.HTTPStatus = new(200)
	o.FinishReason = "length"
	return o
}
