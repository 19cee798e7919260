package main

import (
	"errors"
	"fmt"

	"github.com/servebench/servebench/servebench"
	"github.com/servebench/servebench/servebench/schedule"
)

// phasesHelp is --phases's help.
const phasesHelp = `arrival plan of named phases run one after another in one run, NAME:DURATION@RATE,... such as "steady:30s@10,burst:10s@40,recovery:60s@10": the --arrival process at each phase's rate; report.json judges each phase (phases) and the recovery after the first phase named burst (recovery_ms); replaces --rate, --count and --duration`

// applyPhases makes the run's arrival the --phases plan: the plan's
// phases in the arrival spec, its length as the duration. A phase without
// a duration or with a rate of 0, and a flag the plan replaces, are errors
// before any load.
func (f *runFlags) applyPhases(s *servebench.Settings) error {
	if f.phases == "" {
		return nil
	}
	phases, err := schedule.ParsePhases(f.phases)
	if err != nil {
		return fmt.Errorf("--phases: %w", err)
	}
	for _, name := range []string{"rate", "count", "duration", "users", "time-scale"} {
		if f.given[name] {
			return fmt.Errorf("--phases and --%s: each phase gives its duration and rate; leave --%s out", name, name)
		}
	}
	if p := schedule.Process(f.arrival); !p.Sampled() {
		return fmt.Errorf("--phases: --arrival %s has no rate to vary; give constant, poisson, gamma or burst", p)
	}
	if s.Arrival.Process == "" {
		return errors.New("--phases: no arrival process")
	}
	s.Arrival = s.Arrival.WithPhases(phases)
	s.Count, s.Duration = 0, schedule.PhasesDuration(phases)
	return nil
}
