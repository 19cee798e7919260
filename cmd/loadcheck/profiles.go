package main

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	rtrace "runtime/trace"
)

// startProfiles starts a CPU profile and block and mutex sampling, and
// with trace an execution trace; stop writes prefix-cpu.pprof,
// prefix-block.pprof, prefix-mutex.pprof and prefix-allocs.pprof (the
// heap's allocations since the start), and ends prefix-trace.out. The
// directory of prefix is created if it is missing.
func startProfiles(prefix string, trace bool) (stop func(), err error) {
	if err := os.MkdirAll(filepath.Dir(prefix), 0o755); err != nil {
		return nil, fmt.Errorf("-profile: %w", err)
	}
	cpu, err := os.Create(prefix + "-cpu.pprof")
	if err != nil {
		return nil, fmt.Errorf("-profile: %w", err)
	}
	if err := pprof.StartCPUProfile(cpu); err != nil {
		cpu.Close()
		return nil, fmt.Errorf("-profile: %w", err)
	}
	stopTrace := func() {}
	if trace {
		if stopTrace, err = startTrace(prefix + "-trace.out"); err != nil {
			pprof.StopCPUProfile()
			cpu.Close()
			return nil, err
		}
	}
	runtime.SetBlockProfileRate(int(1e5)) // one sample per 100 µs blocked
	runtime.SetMutexProfileFraction(10)
	return func() {
		stopTrace()
		pprof.StopCPUProfile()
		_ = cpu.Close()
		for _, name := range []string{"block", "mutex", "allocs"} {
			if f, err := os.Create(prefix + "-" + name + ".pprof"); err == nil {
				_ = pprof.Lookup(name).WriteTo(f, 0)
				_ = f.Close()
			}
		}
	}, nil
}

// startTrace starts an execution trace (runtime/trace) written to path;
// stop ends it. Its scheduling-latency view (go tool trace) shows how long
// runnable goroutines waited for a processor.
func startTrace(path string) (stop func(), err error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, fmt.Errorf("-trace: %w", err)
	}
	if err := rtrace.Start(f); err != nil {
		f.Close()
		return nil, fmt.Errorf("-trace: %w", err)
	}
	return func() { rtrace.Stop(); _ = f.Close() }, nil
}
