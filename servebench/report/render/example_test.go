package render_test

import (
	"bytes"
	"fmt"
	"strings"
	"time"

	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/servebench/report"
	"github.com/servebench/servebench/servebench/report/render"
	"github.com/servebench/servebench/servebench/schedule"
	"github.com/servebench/servebench/servebench/score"
)

func ExampleText() {
	r, _ := score.TraceFiles("../../score/testdata/seed000/trace.json", "../../score/testdata/seed000/events.jsonl")
	var buf strings.Builder
	_ = render.Text(&buf, r)
	lines := strings.Split(buf.String(), "\n")
	fmt.Println(strings.Join(lines[4:10], "\n"))
	// Output:
	// Protocol successes:                  5 of 6 offered (83.3%)
	// Qualified requests:                  3 of 6 offered
	// SLO attainment:                      50.0% (3 / 6; performance+quality)
	// Wilson lower bound (95%, 1-sided):   22.1%
	// Successful request rate:             2.000 req/s (5 / 2.5 s horizon)
	// Qualified request rate:              1.200 req/s (3 / 2.5 s horizon)
}

func ExampleHTML() {
	s := &schedule.Schedule{Schema: schedule.Schema, Mode: schedule.ModeOpen, WindowMS: [2]float64{0, 1000}}
	s.Entries = []schedule.Entry{{ID: "q1", ScheduledMS: 0, MaxTokens: 4}, {ID: "q2", ScheduledMS: 500, MaxTokens: 4}}
	// Two successes of 3 tokens: q1's first token 40 ms after it was sent,
	// q2's 400 ms after, beyond the 200 ms TTFT bound.
	success := func(id string, at float64, content []float64, end float64) record.Outcome {
		n, src := 3, record.TokensFromUsage
		return record.Outcome{ID: id, Attempt: 1, Status: record.StatusSuccess, ScheduledMS: at, SlotMS: new(at), SentMS: new(at),
			FirstContentMS: new(content[0]), LastContentMS: new(content[len(content)-1]), TerminalMS: end,
			ContentMS: content, OutputTokens: &n, TokenCountSource: &src}
	}
	outs := []record.Outcome{success("q1", 0, []float64{40, 60}, 70), success("q2", 500, []float64{900, 920}, 930)}
	rep, err := score.Outcomes(s, outs, score.Options{SLO: report.SLO{TTFT: 200 * time.Millisecond}})
	if err != nil {
		fmt.Println(err)
		return
	}
	var page bytes.Buffer
	if err := render.HTML(&page, rep); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(strings.HasPrefix(page.String(), "<!DOCTYPE html>"))
	fmt.Println(strings.Contains(page.String(), "1 / 2; performance"))
	// Output:
	// true
	// true
}
