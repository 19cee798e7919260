package score

import (
	"runtime"
	"testing"

	"github.com/servebench/servebench/internal/synthrun"
)

// BenchmarkRunDirRecords re-scores a synthetic run directory of 64-token
// streams in the runner's format (the records `membench gen` writes) with
// RunDirTo and no request entries, as `score --run DIR --format json`
// does, and reports records scored per second, bytes allocated per
// record, and the process's CPU time per record (user and system, all
// goroutines: on a shared machine a steadier figure than the wall time).
func BenchmarkRunDirRecords(b *testing.B) {
	const n = 100_000
	dir := b.TempDir()
	if err := synthrun.Write(dir, n, 64); err != nil {
		b.Fatal(err)
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	cpu := processCPU()
	b.ResetTimer()
	for b.Loop() {
		r, err := RunDirTo(dir, Options{}, nil)
		if err != nil {
			b.Fatal(err)
		}
		// One request in fifty fails (synthrun.Outcome).
		if r.Offered != n || r.ProtocolSuccesses != n-n/50 {
			b.Fatalf("offered %d, successes %d", r.Offered, r.ProtocolSuccesses)
		}
	}
	b.StopTimer()
	cpu = processCPU() - cpu
	runtime.ReadMemStats(&after)
	records := float64(n) * float64(b.N)
	b.ReportMetric(records/b.Elapsed().Seconds(), "records/s")
	b.ReportMetric(float64(after.TotalAlloc-before.TotalAlloc)/records, "B/record")
	b.ReportMetric(float64(after.Mallocs-before.Mallocs)/records, "allocs/record")
	if cpu > 0 {
		b.ReportMetric(float64(cpu.Nanoseconds())/records, "cpu-ns/record")
	}
}
