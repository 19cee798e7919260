package main

import (
	"bytes"
	"fmt"
	"os"
	"strconv"
	"time"
)

// procSample is a running process's CPU time and peak resident set as
// Linux's /proc shows them.
type procSample struct {
	cpuMS float64 // user plus system time of every thread
	hwmKB int64   // VmHWM: the peak resident set so far, KiB
}

// clockTicksPerSecond is USER_HZ, the unit of /proc/PID/stat's times: 100
// on every Linux architecture's user ABI.
const clockTicksPerSecond = 100

// parseProcStat reads utime and stime (fields 14 and 15) from the text of
// /proc/PID/stat. The command name (field 2) is in parentheses and may hold
// blanks and parentheses itself, so the fields are counted from the last
// ')'.
func parseProcStat(data []byte) (cpuMS float64, err error) {
	i := bytes.LastIndexByte(data, ')')
	if i < 0 {
		return 0, fmt.Errorf("/proc stat: no command name in %q", data)
	}
	f := bytes.Fields(data[i+1:]) // f[0] is field 3, the state
	if len(f) < 13 {
		return 0, fmt.Errorf("/proc stat: %d fields after the command name, want at least 13", len(f))
	}
	var ticks int64
	for _, s := range f[11:13] {
		n, err := strconv.ParseInt(string(s), 10, 64)
		if err != nil {
			return 0, fmt.Errorf("/proc stat: %w", err)
		}
		ticks += n
	}
	return float64(ticks) * 1000 / clockTicksPerSecond, nil
}

// parseVmHWM reads the VmHWM line (KiB) from the text of /proc/PID/status.
func parseVmHWM(data []byte) (int64, error) {
	for line := range bytes.Lines(data) {
		rest, ok := bytes.CutPrefix(line, []byte("VmHWM:"))
		if !ok {
			continue
		}
		f := bytes.Fields(rest)
		if len(f) != 2 || string(f[1]) != "kB" {
			return 0, fmt.Errorf("/proc status: VmHWM line %q", line)
		}
		return strconv.ParseInt(string(f[0]), 10, 64)
	}
	return 0, fmt.Errorf("/proc status: no VmHWM line")
}

// readProcSample samples process pid.
func readProcSample(pid int) (procSample, error) {
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return procSample{}, err
	}
	status, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return procSample{}, err
	}
	cpu, err := parseProcStat(stat)
	if err != nil {
		return procSample{}, err
	}
	hwm, err := parseVmHWM(status)
	return procSample{cpuMS: cpu, hwmKB: hwm}, err
}

// childWatchInterval is how often a child's outcome file is looked at.
const childWatchInterval = 10 * time.Millisecond

// childWatch samples a running servebench child each time its outcome
// file has grown, so that the sample taken when the file reached its final
// length says what the child had used when its last request ended, before
// it scored the run and wrote its reports. The sample lags that instant by
// at most childWatchInterval, and /proc counts CPU in 10 ms ticks.
type childWatch struct {
	path string
	quit chan struct{}
	done chan struct{}
	// last is the sample taken when the file was first seen at size.
	last struct {
		size   int64
		sample procSample
		ok     bool
	}
}

// watchChild starts watching process pid and its outcome file at path.
func watchChild(pid int, path string) *childWatch {
	w := &childWatch{path: path, quit: make(chan struct{}), done: make(chan struct{})}
	go func() {
		defer close(w.done)
		t := time.NewTicker(childWatchInterval)
		defer t.Stop()
		size := int64(-1)
		for {
			select {
			case <-w.quit:
				return
			case <-t.C:
			}
			info, err := os.Stat(path)
			if err != nil || info.Size() == size {
				continue
			}
			size = info.Size()
			s, err := readProcSample(pid)
			w.last.size, w.last.sample, w.last.ok = size, s, err == nil
		}
	}()
	return w
}

// stop ends the watch once the child has exited and returns the sample
// taken when the outcome file first had its final length; ok is false
// when no such sample was taken (the file's last growth came after the
// last look, or /proc could not be read).
func (w *childWatch) stop() (procSample, bool) {
	close(w.quit)
	<-w.done
	info, err := os.Stat(w.path)
	if err != nil || !w.last.ok || w.last.size != info.Size() {
		return procSample{}, false
	}
	return w.last.sample, true
}
