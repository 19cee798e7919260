package servebench

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
)

// RunSweep runs cfg once per offered rate, lowest first, each into its own
// sub-directory of cfg.OutputDir ("rate-<rps>"), and selects the SLO
// capacity by rule: the highest passing tested offered rate. Each point
// re-realizes the schedule with the same process and seed at its own rate.
// A cancelled sweep returns the points it finished.
func RunSweep(ctx context.Context, cfg RunConfig, rates []float64, rule CapacityRule) (*Sweep, error) {
	if cfg.Arrival == nil {
		return nil, fmt.Errorf("sweep: an open-loop arrival process is required (a closed loop has no offered rate)")
	}
	if len(rates) == 0 {
		return nil, fmt.Errorf("sweep: no rates")
	}
	rates = slices.Clone(rates)
	slices.Sort(rates)
	base := cfg.Arrival.Spec()
	dir, err := runDir(cfg.OutputDir)
	if err != nil {
		return nil, err
	}
	sw := &Sweep{Rule: rule}
	for _, rate := range rates {
		spec := base
		spec.RateRPS = rate
		a, err := NewArrival(spec)
		if err != nil {
			return nil, fmt.Errorf("sweep: rate %v: %w", rate, err)
		}
		point := cfg
		point.Arrival = a
		point.Schedule = nil
		point.RunID = ""
		point.OutputDir = filepath.Join(dir, "rate-"+strconv.FormatFloat(rate, 'f', -1, 64))
		res, err := Run(ctx, point)
		if res != nil && res.Report != nil {
			sw.Points = append(sw.Points, SweepPoint{OfferedRPS: rate, Report: res.Report})
		}
		if err != nil {
			sw.Selection = SelectCapacity(sw.Points, rule)
			return sw, fmt.Errorf("sweep: rate %v: %w", rate, err)
		}
	}
	sw.Selection = SelectCapacity(sw.Points, rule)
	return sw, nil
}
