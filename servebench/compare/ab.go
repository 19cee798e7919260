package compare

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"

	"github.com/servebench/servebench/servebench"
)

// The files an A/B directory holds beside its baseline/ and candidate/
// round directories.
const (
	ComparisonFile     = "compare.json"
	ComparisonHTMLFile = "compare.html"
)

// Side names one side of an A/B comparison.
type Side string

// The two sides.
const (
	Baseline  Side = "baseline"
	Candidate Side = "candidate"
)

// ABConfig declares an A/B qualification: Rounds rounds, each one baseline
// run and one candidate run of the same workload, arrival process and seed.
type ABConfig struct {
	// Baseline and Candidate configure each side's runs; they differ only
	// in the engine (Client, MetricsURL, Engine). Their OutputDir and RunID
	// are ignored.
	Baseline, Candidate servebench.RunConfig
	// Rounds is the number of rounds (default 3). Round K uses the arrival
	// seed plus K − 1 on both sides.
	Rounds int
	// OutputDir receives baseline/round-K and candidate/round-K run
	// directories, compare.json and compare.html.
	OutputDir string
	// Options declares the comparison.
	Options Options
	// BeforeRun, when set, is called before each run with its side, round
	// (from 1) and configuration, which it may change (to start a fresh
	// engine, say); the returned function, when not nil, runs after the run.
	BeforeRun func(side Side, round int, cfg *servebench.RunConfig) (after func(), err error)
}

// ABResult is what an A/B qualification leaves.
type ABResult struct {
	// Baseline and Candidate hold every run's report, in round order.
	Baseline, Candidate []*servebench.Report
	// Comparison is the verdict.
	Comparison *Comparison
	// Order lists the runs in the order they ran, as "baseline/round-1".
	Order []string
}

// RunAB runs the rounds in alternating order (baseline first in odd
// rounds, candidate first in even ones) so that drift and warm-up hit both
// sides alike, keeps every run, compares them and writes compare.json and
// compare.html into the output directory. A run that ends in error stops
// the qualification; the runs made so far stay on disk.
func RunAB(ctx context.Context, cfg ABConfig) (*ABResult, error) {
	if cfg.Rounds == 0 {
		cfg.Rounds = 3
	}
	if cfg.Rounds < 1 {
		return nil, fmt.Errorf("ab: rounds must be at least 1, got %d", cfg.Rounds)
	}
	if cfg.OutputDir == "" {
		return nil, errors.New("ab: an output directory is required")
	}
	res := &ABResult{}
	for k := 1; k <= cfg.Rounds; k++ {
		order := []Side{Baseline, Candidate}
		if k%2 == 0 {
			order = []Side{Candidate, Baseline}
		}
		for _, side := range order {
			rep, err := runSide(ctx, cfg, side, k)
			if err != nil {
				return res, err
			}
			res.Order = append(res.Order, string(side)+"/round-"+strconv.Itoa(k))
			if side == Baseline {
				res.Baseline = append(res.Baseline, rep)
			} else {
				res.Candidate = append(res.Candidate, rep)
			}
		}
	}
	c, err := Reports(res.Baseline, res.Candidate, cfg.Options)
	if err != nil {
		return res, err
	}
	res.Comparison = c
	return res, c.WriteFiles(cfg.OutputDir)
}

// runSide makes one run of one side in round k.
func runSide(ctx context.Context, cfg ABConfig, side Side, k int) (*servebench.Report, error) {
	run := cfg.Baseline
	if side == Candidate {
		run = cfg.Candidate
	}
	run.OutputDir = filepath.Join(cfg.OutputDir, string(side), "round-"+strconv.Itoa(k))
	run.RunID, run.Schedule = "", nil
	if run.Arrival != nil {
		spec := run.Arrival.Spec()
		if spec.Process != "replay" {
			spec.Seed += int64(k - 1)
			a, err := servebench.NewArrival(spec)
			if err != nil {
				return nil, fmt.Errorf("ab: %s round %d: %w", side, k, err)
			}
			run.Arrival = a
		}
	}
	if cfg.BeforeRun != nil {
		after, err := cfg.BeforeRun(side, k, &run)
		if err != nil {
			return nil, fmt.Errorf("ab: %s round %d: %w", side, k, err)
		}
		if after != nil {
			defer after()
		}
	}
	r, err := servebench.Run(ctx, run)
	if err != nil {
		return nil, fmt.Errorf("ab: %s round %d: %w", side, k, err)
	}
	return r.Report, nil
}

// WriteFiles writes compare.json and compare.html into dir.
func (c *Comparison) WriteFiles(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("compare: %w", err)
	}
	b, err := c.JSON()
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, ComparisonFile), b, 0o644); err != nil {
		return fmt.Errorf("compare: %w", err)
	}
	f, err := os.Create(filepath.Join(dir, ComparisonHTMLFile))
	if err != nil {
		return fmt.Errorf("compare: %w", err)
	}
	if err := c.WriteHTML(f); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
