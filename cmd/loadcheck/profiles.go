package main

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"
)

// startProfiles starts a CPU profile and block and mutex sampling; stop
// writes prefix-cpu.pprof, prefix-block.pprof, prefix-mutex.pprof and
// prefix-allocs.pprof (the heap's allocations since the start). The
// directory of prefix is created if it is missing.
func startProfiles(prefix string) (stop func(), err error) {
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
	runtime.SetBlockProfileRate(int(1e5)) // one sample per 100 µs blocked
	runtime.SetMutexProfileFraction(10)
	return func() {
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
