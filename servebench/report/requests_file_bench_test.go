//go:build unix

package report

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"syscall"
	"testing"
	"time"

	"github.com/servebench/servebench/internal/strictjson"
	"github.com/servebench/servebench/servebench/record"
)

// benchRequests is how many entries the benchmark's requests.jsonl holds.
const benchRequests = 10000

// writeBenchRequests writes a requests.jsonl as a run of 64-token streams
// leaves it: successes, and one request in twenty an HTTP error whose
// message quotes the engine's JSON (escapes: read by the strict decoder).
func writeBenchRequests(b *testing.B) string {
	b.Helper()
	path := filepath.Join(b.TempDir(), record.RequestsFile)
	f, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	w := bufio.NewWriter(f)
	for i := range benchRequests {
		sched := float64(i) * 3.337
		rs := RequestScore{ID: fmt.Sprintf("p%03d", i%256), Status: record.StatusSuccess, ScheduledMS: sched,
			SentMS: new(sched + 0.412), TTFTMS: new(1.731), TTFTFromScheduledMS: new(2.143), TPOTMS: new(1.0457142857142858),
			E2EMS: new(67.871), LastTokenMS: new(67.602), ScheduleLagMS: new(0.412), MaxGapMS: new(3.217),
			OutputTokens: new(64), Quality: "unscored", Qualified: true, Reasons: []Reason{}}
		if i%20 == 7 {
			rs.Status, rs.Qualified, rs.Reasons = record.StatusHTTPError, false, []Reason{ReasonStatus}
			rs.TTFTMS, rs.TTFTFromScheduledMS, rs.TPOTMS, rs.LastTokenMS, rs.MaxGapMS, rs.OutputTokens = nil, nil, nil, nil, nil, nil
			rs.Error = `HTTP 503: {"error":"overloaded"}`
		}
		line, err := json.Marshal(&rs)
		if err != nil {
			b.Fatal(err)
		}
		w.Write(append(line, '\n'))
	}
	if err := w.Flush(); err != nil {
		b.Fatal(err)
	}
	if err := f.Close(); err != nil {
		b.Fatal(err)
	}
	return path
}

// readRequestScoresStrict is ReadRequestScores as it was before its fast
// path: every line copied out of the reader and decoded strictly.
func readRequestScoresStrict(path string, each func(*RequestScore) error) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	r := bufio.NewReaderSize(f, 256<<10)
	var rs RequestScore
	for line := 1; ; line++ {
		text, err := r.ReadBytes('\n')
		if len(bytes.TrimSpace(text)) > 0 {
			rs = RequestScore{}
			if derr := strictjson.Decode(text, &rs); derr != nil {
				return fmt.Errorf("%s:%d: %w", path, line, derr)
			}
			if cerr := each(&rs); cerr != nil {
				return cerr
			}
		}
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

// readCost is what one read of the file cost: CPU (user plus system, GC
// included), allocations and allocated bytes.
type readCost struct {
	cpu            time.Duration
	allocs, nbytes uint64
}

// measureRead reads the file once with read and says what it cost.
func measureRead(b *testing.B, path string, read func(string, func(*RequestScore) error) error) readCost {
	b.Helper()
	var m0, m1 runtime.MemStats
	var u0, u1 syscall.Rusage
	n := 0
	runtime.ReadMemStats(&m0)
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &u0)
	err := read(path, func(rs *RequestScore) error {
		if rs.Status == record.StatusSuccess {
			n++
		}
		return nil
	})
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &u1)
	runtime.ReadMemStats(&m1)
	if err != nil || n != benchRequests-benchRequests/20 {
		b.Fatalf("read %d successes, %v", n, err)
	}
	return readCost{cpu: rusageCPU(&u1) - rusageCPU(&u0), allocs: m1.Mallocs - m0.Mallocs, nbytes: m1.TotalAlloc - m0.TotalAlloc}
}

// rusageCPU is user plus system time.
func rusageCPU(u *syscall.Rusage) time.Duration {
	return time.Duration(u.Utime.Nano() + u.Stime.Nano())
}

// BenchmarkReadRequestScores reads a 10,000-entry requests.jsonl, as the
// report pages do after a run, the strict way every line was read before
// and with the fast path, alternately, and reports each one's CPU
// (user plus system, from getrusage, so a busy machine's waiting is not
// counted), allocations and bytes per request, and the ratios fast/strict.
//
//	go test -run '^$' -bench ReadRequestScores -benchtime 20x ./servebench/report
func BenchmarkReadRequestScores(b *testing.B) {
	path := writeBenchRequests(b)
	var strict, fast readCost
	b.ResetTimer()
	for range b.N {
		s := measureRead(b, path, readRequestScoresStrict)
		f := measureRead(b, path, ReadRequestScores)
		strict.cpu, strict.allocs, strict.nbytes = strict.cpu+s.cpu, strict.allocs+s.allocs, strict.nbytes+s.nbytes
		fast.cpu, fast.allocs, fast.nbytes = fast.cpu+f.cpu, fast.allocs+f.allocs, fast.nbytes+f.nbytes
	}
	per := float64(b.N * benchRequests)
	b.ReportMetric(float64(strict.cpu.Nanoseconds())/per, "strict-cpu-ns/req")
	b.ReportMetric(float64(fast.cpu.Nanoseconds())/per, "fast-cpu-ns/req")
	b.ReportMetric(float64(fast.cpu)/float64(max(strict.cpu, 1)), "cpu-ratio")
	b.ReportMetric(float64(strict.allocs)/per, "strict-allocs/req")
	b.ReportMetric(float64(fast.allocs)/per, "fast-allocs/req")
	b.ReportMetric(float64(strict.nbytes)/per, "strict-B/req")
	b.ReportMetric(float64(fast.nbytes)/per, "fast-B/req")
	b.ReportMetric(float64(fast.nbytes)/float64(max(strict.nbytes, 1)), "bytes-ratio")
}
