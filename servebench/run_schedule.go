package servebench

import (
	"fmt"
	"path/filepath"

	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/servebench/schedule"
)

// preparedSchedule is a run's schedule once it is realized and saved: the
// schedule the run sends and scores, the dispatcher's plan (which reads
// the entries back from schedule.json), and the file's hash.
type preparedSchedule struct {
	sched  *schedule.Schedule
	plan   *dispatchPlan
	sha256 string
}

// streamsSchedule says whether a run realizes its schedule straight into
// schedule.json and the dispatcher's plan, never holding its entries: an
// unsharded run that realizes its own schedule. (A shard cuts its share
// from the whole.)
func (cfg *RunConfig) streamsSchedule() bool {
	return cfg.Schedule == nil && cfg.Shard == nil
}

// realizeSchedule realizes the run's schedule, or takes the one given, and
// marks a shard's.
func realizeSchedule(cfg *RunConfig) (*schedule.Schedule, error) {
	s := cfg.Schedule
	if s == nil {
		var err error
		if s, err = schedule.Build(cfg.schedulePlan()); err != nil {
			return nil, err
		}
	}
	if cfg.Shard != nil && s.Shard == nil {
		return s.ForShard(*cfg.Shard)
	}
	return s, nil
}

// schedulePlan is what the run's schedule is realized from.
func (cfg *RunConfig) schedulePlan() schedule.Plan {
	return schedule.Plan{
		Workload: cfg.Workload, Arrival: cfg.Arrival, ClosedLoop: cfg.ClosedLoop,
		Count: cfg.Count, Duration: cfg.Duration, LagTolerance: cfg.LagTolerance, RunID: cfg.RunID,
		Adapters: cfg.LoRA.Mix,
	}
}

// prepareSchedule realizes the run's schedule and writes it to the run
// directory, created once the schedule is known to be good. The returned
// schedule is the share this run sends; a run that streams its schedule
// keeps its header only.
func prepareSchedule(cfg *RunConfig) (string, *preparedSchedule, error) {
	if err := cfg.checkHistory(); err != nil {
		return "", nil, err
	}
	var r *schedule.Realization
	var s *schedule.Schedule
	var err error
	if cfg.streamsSchedule() {
		r, err = schedule.Realize(cfg.schedulePlan())
	} else {
		s, err = realizeSchedule(cfg)
	}
	if err != nil {
		return "", nil, fmt.Errorf("run: %w", err)
	}
	dir, err := CreateRunDir(cfg.OutputDir)
	if err != nil {
		return "", nil, err
	}
	path := filepath.Join(dir, record.ScheduleFile)
	var p *preparedSchedule
	if r != nil {
		p, err = streamSchedule(path, r)
	} else {
		p, err = writeSchedule(path, s)
	}
	if err != nil {
		return "", nil, fmt.Errorf("run: %w", err)
	}
	return dir, p, nil
}

// writeSchedule writes a schedule held whole and plans the share this run
// sends.
func writeSchedule(path string, s *schedule.Schedule) (*preparedSchedule, error) {
	sum, err := schedule.Write(path, s)
	if err != nil {
		return nil, err
	}
	own := s.OwnShare()
	plan := &dispatchPlan{path: path}
	for i := range own.Entries {
		if err := plan.add(&own.Entries[i]); err != nil {
			return nil, err
		}
	}
	return &preparedSchedule{sched: own, plan: plan, sha256: sum}, nil
}

// streamSchedule writes r's entries to path as they are realized and
// counts them into the dispatcher's plan, which reads them back from path.
func streamSchedule(path string, r *schedule.Realization) (*preparedSchedule, error) {
	f, err := schedule.CreateFile(path)
	if err != nil {
		return nil, err
	}
	enc, err := schedule.NewEncoder(f, r.Head)
	if err != nil {
		f.Abort()
		return nil, err
	}
	plan := &dispatchPlan{path: path}
	err = r.Entries(func(e *schedule.Entry) error {
		if err := enc.Entry(e); err != nil {
			return err
		}
		return plan.add(e)
	})
	if err == nil {
		err = enc.Close()
	}
	if err != nil {
		f.Abort()
		return nil, err
	}
	sum, err := f.Close()
	if err != nil {
		return nil, err
	}
	return &preparedSchedule{sched: r.Head, plan: plan, sha256: sum}, nil
}
