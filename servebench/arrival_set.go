package servebench

import (
	"errors"

	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/servebench/schedule"
)

// setArrival sets cfg's arrivals from a spec of any process, for
// Settings.RunConfig, the one mapping the command line and contracts share
// (Go code sets Arrival with Constant, Poisson or Gamma):
//
//   - constant, poisson, gamma and burst set Arrival (NewArrival);
//   - replay sets Arrival to a replay of cfg.Workload's stored times at
//     spec.TimeScale (NewReplay; 0 means 1);
//   - closed sets ClosedLoop from spec.Users and spec.ThinkTimeMS (checked
//     when the schedule is built).
//
// It clears whichever of Arrival and ClosedLoop the spec does not set.
func (cfg *RunConfig) setArrival(spec schedule.ArrivalSpec) error {
	cfg.Arrival, cfg.ClosedLoop = nil, nil
	switch {
	case spec.Process == schedule.ProcessClosed:
		cfg.ClosedLoop = &schedule.ClosedLoop{Users: spec.Users, ThinkTime: record.FromMillis(spec.ThinkTimeMS)}
		return nil
	case spec.Process == schedule.ProcessReplay:
		if cfg.Workload == nil {
			return errors.New("arrival: replay needs the run's workload first")
		}
		replay, err := schedule.NewReplay(cfg.Workload, spec.TimeScale)
		if err != nil {
			return err
		}
		cfg.Arrival = replay
		return nil
	}
	a, err := schedule.NewArrival(spec)
	if err != nil {
		return err
	}
	cfg.Arrival = a
	return nil
}
