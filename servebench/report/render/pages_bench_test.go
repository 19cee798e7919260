//go:build unix

package render_test

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"syscall"
	"testing"
	"time"

	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/servebench/report"
	"github.com/servebench/servebench/servebench/report/render"
	"github.com/servebench/servebench/servebench/schedule"
	"github.com/servebench/servebench/servebench/score"
)

// pagesBenchRequests is the length of the benchmark's run: 10 s at 300
// requests/s, as loadcheck's 300rps preset offers.
const pagesBenchRequests = 3000

// streamedBenchReport scores a run of 64-token streams, one request in
// fifty an HTTP error whose message quotes the engine's JSON, and leaves
// its request entries in a requests.jsonl the report names, as a run does.
func streamedBenchReport(b *testing.B) *report.Report {
	b.Helper()
	s := &schedule.Schedule{Schema: schedule.Schema, Mode: schedule.ModeOpen, WindowMS: [2]float64{0, pagesBenchRequests * 3.333}, ScheduleLagToleranceMS: 20}
	outs := make([]record.Outcome, 0, pagesBenchRequests)
	src := record.TokensFromUsage
	status503 := 503
	for i := range pagesBenchRequests {
		id := fmt.Sprintf("r%05d", i)
		a := float64(i) * 3.333
		d := a + 0.4 + float64(i%7)/10
		s.Entries = append(s.Entries, schedule.Entry{ID: id, Row: i, ScheduledMS: a, MaxTokens: 64})
		if i%50 == 7 {
			outs = append(outs, record.Outcome{ID: id, Attempt: 1, Status: record.StatusHTTPError, ScheduledMS: a, SlotMS: &a,
				SentMS: &d, TerminalMS: d + 1.5, HTTPStatus: &status503, Error: `HTTP 503: {"error":"overloaded"}`})
			continue
		}
		content := make([]float64, 64)
		for k := range content {
			content[k] = d + 1.2 + float64(k)*1.01 + float64(i%13)/100
		}
		n := 64
		outs = append(outs, record.Outcome{ID: id, Attempt: 1, Status: record.StatusSuccess, ScheduledMS: a, SlotMS: &a, SentMS: &d,
			FirstContentMS: &content[0], LastContentMS: &content[63], TerminalMS: content[63] + 0.2, ContentMS: content,
			OutputTokens: &n, TokenCountSource: &src})
	}
	r, err := score.Outcomes(s, outs, score.Options{SLO: report.SLO{TTFT: 50 * time.Millisecond}})
	if err != nil {
		b.Fatal(err)
	}
	path := filepath.Join(b.TempDir(), record.RequestsFile)
	f, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	w := bufio.NewWriter(f)
	enc := json.NewEncoder(w)
	for i := range r.Requests {
		if err := enc.Encode(&r.Requests[i]); err != nil {
			b.Fatal(err)
		}
	}
	if err := w.Flush(); err != nil {
		b.Fatal(err)
	}
	if err := f.Close(); err != nil {
		b.Fatal(err)
	}
	r.Requests, r.RequestsFile = nil, path
	return r
}

// BenchmarkReportPages writes the text and HTML pages of a 3,000-request
// run whose entries are in requests.jsonl, as a run does after its last
// request, and reports the CPU (user plus system, from getrusage, so that
// a busy machine's waiting is not counted), allocations and bytes per
// request.
//
//	go test -run '^$' -bench ReportPages -benchtime 10x ./servebench/report/render
func BenchmarkReportPages(b *testing.B) {
	r := streamedBenchReport(b)
	var m0, m1 runtime.MemStats
	var u0, u1 syscall.Rusage
	runtime.GC()
	runtime.ReadMemStats(&m0)
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &u0)
	b.ResetTimer()
	for range b.N {
		if err := render.Text(io.Discard, r); err != nil {
			b.Fatal(err)
		}
		if err := render.HTML(io.Discard, r); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &u1)
	runtime.ReadMemStats(&m1)
	cpu := (u1.Utime.Nano() + u1.Stime.Nano()) - (u0.Utime.Nano() + u0.Stime.Nano())
	per := float64(b.N * pagesBenchRequests)
	b.ReportMetric(float64(cpu)/per, "cpu-ns/req")
	b.ReportMetric(float64(m1.Mallocs-m0.Mallocs)/per, "allocs/req")
	b.ReportMetric(float64(m1.TotalAlloc-m0.TotalAlloc)/per, "B/req")
}
