package schedule

import (
	"fmt"
	"strings"
)

// Process names an arrival process. Its string form is what schedules,
// reports, contracts and the command line spell.
type Process string

// The arrival processes. The first four are sampled open-loop processes
// built from a spec alone; replay needs a workload's stored times and closed
// is a population of users, not an arrival stream.
const (
	ProcessConstant Process = "constant"
	ProcessPoisson  Process = "poisson"
	ProcessGamma    Process = "gamma"
	ProcessBurst    Process = "burst"
	ProcessReplay   Process = "replay"
	ProcessClosed   Process = "closed"
)

// processes lists every process, in the order messages name them.
var processes = [...]Process{ProcessConstant, ProcessPoisson, ProcessGamma, ProcessBurst, ProcessReplay, ProcessClosed}

// Processes lists every arrival process.
func Processes() []Process { return processes[:] }

// Known reports whether p is one of the processes.
func (p Process) Known() bool {
	for _, q := range processes {
		if p == q {
			return true
		}
	}
	return false
}

// Sampled reports whether p is a sampled open-loop process (constant,
// poisson, gamma, burst): one with an offered rate.
func (p Process) Sampled() bool {
	return p == ProcessConstant || p == ProcessPoisson || p == ProcessGamma || p == ProcessBurst
}

// Mode is the loop a schedule runs in.
func (p Process) Mode() Mode {
	if p == ProcessClosed {
		return ModeClosed
	}
	return ModeOpen
}

// processList spells the processes for messages: "constant, poisson, gamma,
// burst, replay or closed".
func processList() string {
	names := make([]string, len(processes))
	for i, p := range processes {
		names[i] = string(p)
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}

// ParseProcess reads a process name; an unknown name is an error that lists
// the known ones.
func ParseProcess(s string) (Process, error) {
	if p := Process(s); p.Known() {
		return p, nil
	}
	return "", fmt.Errorf("unknown process %q (want %s)", s, processList())
}

// Mode says whether requests arrive independently of completions (open) or
// a fixed population of users sends the next request after the previous
// one ends (closed).
type Mode string

// The two modes. A closed-loop run measures the engine under its own
// pacing, so it is never a capacity.
const (
	ModeOpen   Mode = "open"
	ModeClosed Mode = "closed"
)
