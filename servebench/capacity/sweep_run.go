package capacity

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strconv"

	"github.com/servebench/servebench/servebench"
	"github.com/servebench/servebench/servebench/report"
	"github.com/servebench/servebench/servebench/schedule"
)

// Plan declares a sweep: the offered rates, the runs at each, their
// order, and the rule that selects the capacity.
type Plan struct {
	// Rates are the offered rates to test, in requests per second.
	Rates []float64
	// Repeat is the number of runs at each rate (default 1). Run k (from
	// 0) re-realizes the schedule with the arrival seed plus k, so repeats
	// are independent draws; a rate passes only when all its runs pass.
	Repeat int
	// Descending tests the highest rate first. A downward sweep shows
	// hysteresis (caches or thermal state carried over from a heavier
	// point) that an upward one hides; compare the two.
	Descending bool
	// Rule decides which points pass.
	Rule Rule
	// Auto, when set, replaces Rates: the sweep searches for the knee
	// itself (see AutoRates). Descending does not apply to it.
	Auto *AutoRates
	// Users, when set, makes the sweep a closed-loop search for the SLO
	// concurrency instead (see AutoUsers): the run's ClosedLoop gives the
	// think time, and Rates, Auto, Repeat and Descending do not apply.
	Users *AutoUsers
}

// RunSweep runs cfg at every rate of the plan, each run into its own
// sub-directory of cfg.OutputDir ("rate-<rps>", with "/run-<k>" when a rate
// is repeated), and selects the SLO capacity by the plan's rule: the highest
// passing tested offered rate. Every point keeps cfg's arrival process and
// workload and re-realizes its schedule at its own rate. A cancelled sweep
// returns the points it finished and the one it was running, marked
// Interrupted.
func RunSweep(ctx context.Context, cfg servebench.RunConfig, plan Plan) (result *Sweep, err error) {
	if plan.Users != nil {
		return runUserSweep(ctx, cfg, plan)
	}
	if cfg.Arrival == nil {
		return nil, fmt.Errorf("sweep: an open-loop arrival process is required (a closed loop has no offered rate)")
	}
	if plan.Auto != nil {
		if err := plan.Auto.check(); err != nil {
			return nil, err
		}
	} else if len(plan.Rates) == 0 {
		return nil, fmt.Errorf("sweep: no rates")
	}
	if cfg.Shard != nil || !cfg.StartAt.IsZero() {
		return nil, fmt.Errorf("sweep: a sweep runs its rates one after another; shard each rate's run instead (run --shard, --start-at)")
	}
	if plan.Repeat < 0 {
		return nil, fmt.Errorf("sweep: repeat must not be negative")
	}
	loaded, err := loadAdaptersOnce(ctx, &cfg)
	if err != nil {
		return nil, err
	}
	defer unloadAdaptersAfter(ctx, cfg, loaded, &err)
	repeat := max(plan.Repeat, 1)
	base := cfg.Arrival.Spec()
	dir, err := servebench.CreateRunDir(cfg.OutputDir)
	if err != nil {
		return nil, err
	}
	declared := base
	declared.RateRPS = 0 // each point sets its own
	sw := &Sweep{Rule: plan.Rule, Arrival: &declared}
	// runRate runs every repeat at rate (again, for a boundary replicate,
	// with the next seeds) and reports whether the rate passed.
	runs := map[float64]int{}
	runRate := func(rate float64) (bool, error) {
		for range repeat {
			k := runs[rate]
			runs[rate]++
			spec := base
			spec.RateRPS = rate
			spec.Seed = base.Seed + int64(k)
			a, err := schedule.NewArrival(spec)
			if err != nil {
				return false, fmt.Errorf("sweep: rate %v: %w", rate, err)
			}
			point := cfg
			point.Arrival, point.Schedule, point.RunID = a, nil, ""
			point.OutputDir = pointDir(dir, "rate-"+strconv.FormatFloat(rate, 'f', -1, 64), k, repeat > 1)
			res, err := servebench.Run(ctx, point)
			if res != nil && res.Report != nil {
				sw.Points = append(sw.Points, Point{OfferedRPS: rate, Repeat: k + 1, RunDir: point.OutputDir, Report: res.Report,
					Interrupted: err != nil && ctx.Err() != nil})
			}
			if err != nil {
				return false, fmt.Errorf("sweep: rate %v: %w", rate, err)
			}
		}
		return RateVerdicts(Select(sw.Points, plan.Rule).Verdicts)[rate] == VerdictPass, nil
	}
	if plan.Auto != nil {
		err = plan.Auto.search(runRate)
		sw.Auto = plan.Auto
		if err == nil {
			err = replicateBoundary(sw, plan.Rule, plan.Auto.BoundaryRuns, func(rate float64) error {
				plan.Auto.Replicated = append(plan.Auto.Replicated, rate)
				_, err := runRate(rate)
				return err
			})
		}
	} else {
		rates := slices.Clone(plan.Rates)
		slices.Sort(rates)
		if plan.Descending {
			slices.Reverse(rates)
		}
		for _, rate := range rates {
			if _, err = runRate(rate); err != nil {
				break
			}
		}
	}
	finishSweep(sw)
	return sw, err
}

// pointDir is the directory of run k (from 0) at one sweep point: name
// itself for the first run, then name-run-<k+1> beside it; with nested
// (a declared repeat) always name/run-<k+1>.
func pointDir(dir, name string, k int, nested bool) string {
	switch {
	case nested:
		return filepath.Join(dir, name, "run-"+strconv.Itoa(k+1))
	case k == 0:
		return filepath.Join(dir, name)
	}
	return filepath.Join(dir, name+"-run-"+strconv.Itoa(k+1))
}

// loadAdaptersOnce loads cfg's LoRA adapters before a sweep's first point,
// unless they were loaded already: the points share one engine, which
// refuses an adapter loaded twice. Every point's report carries the loads.
// It returns the loads it did, for the sweep to undo at its end.
func loadAdaptersOnce(ctx context.Context, cfg *servebench.RunConfig) ([]report.AdapterLoad, error) {
	if len(cfg.LoRA.Load) == 0 || cfg.LoRA.Loaded != nil {
		return nil, nil
	}
	loads, err := servebench.LoadAdapters(ctx, *cfg)
	if err != nil {
		return nil, fmt.Errorf("sweep: %w", err)
	}
	cfg.LoRA.Loaded = loads
	return loads, nil
}

// unloadAdaptersAfter undoes the loads a sweep did (loadAdaptersOnce's) as
// it returns, joining a failure into *err.
func unloadAdaptersAfter(ctx context.Context, cfg servebench.RunConfig, loads []report.AdapterLoad, err *error) {
	if uerr := servebench.UnloadAdapters(ctx, cfg, loads); uerr != nil {
		*err = errors.Join(*err, fmt.Errorf("sweep: unloading the adapters it loaded: %w", uerr))
	}
}
