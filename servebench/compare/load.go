package compare

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/servebench/report"
)

// LoadSide reads one side of a comparison from path: a run directory
// (holding report.json), or a directory of round-K run directories (as
// servebench ab writes them) or run-K ones (as a sweep's repeats write
// them), in order of K. It returns the reports and their directories.
func LoadSide(path string) ([]*report.Report, []string, error) {
	if _, err := os.Stat(filepath.Join(path, record.ReportFile)); err == nil {
		r, err := readReport(filepath.Join(path, record.ReportFile))
		if err != nil {
			return nil, nil, err
		}
		return []*report.Report{r}, []string{path}, nil
	}
	entries, err := os.ReadDir(path)
	if err != nil {
		return nil, nil, fmt.Errorf("compare: %w", err)
	}
	type round struct {
		k   int
		dir string
	}
	var rounds []round
	prefix := ""
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		for _, p := range []string{"round-", "run-"} {
			rest, ok := strings.CutPrefix(e.Name(), p)
			if !ok {
				continue
			}
			k, err := strconv.Atoi(rest)
			if err != nil || k < 1 {
				return nil, nil, fmt.Errorf("compare: %s: %q is not %sK with K a round number from 1", path, e.Name(), p)
			}
			if prefix != "" && prefix != p {
				return nil, nil, fmt.Errorf("compare: %s mixes round-K and run-K directories", path)
			}
			prefix = p
			rounds = append(rounds, round{k, filepath.Join(path, e.Name())})
		}
	}
	if len(rounds) == 0 {
		return nil, nil, fmt.Errorf("compare: %s holds no runs: neither %s nor round-K or run-K run directories", path, record.ReportFile)
	}
	sort.Slice(rounds, func(i, j int) bool { return rounds[i].k < rounds[j].k })
	reports := make([]*report.Report, len(rounds))
	dirs := make([]string, len(rounds))
	for i, r := range rounds {
		if r.k != i+1 {
			return nil, nil, fmt.Errorf("compare: %s: %s%d is missing (rounds are numbered from 1 without gaps; every run is kept)", path, prefix, i+1)
		}
		if reports[i], err = readReport(filepath.Join(r.dir, record.ReportFile)); err != nil {
			return nil, nil, err
		}
		dirs[i] = r.dir
	}
	if err := sameWorkload(path, reports, dirs); err != nil {
		return nil, nil, err
	}
	return reports, dirs, nil
}

// sameWorkload refuses a side whose runs replayed different workloads:
// its rounds would not be repeats of one measurement.
func sameWorkload(path string, reports []*report.Report, dirs []string) error {
	for i, r := range reports {
		if w, first := r.Inputs.WorkloadSHA256, reports[0].Inputs.WorkloadSHA256; w != first {
			return fmt.Errorf("compare: %s mixes runs of different workloads: %s ran %s, %s ran %s; a side's rounds must repeat one workload",
				path, filepath.Base(dirs[0]), short(first), filepath.Base(dirs[i]), short(w))
		}
	}
	return nil
}

// readReport decodes one report.json, naming the file in any error.
func readReport(path string) (*report.Report, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, fmt.Errorf("compare: %s: no report (was the run scored?)", path)
		}
		return nil, fmt.Errorf("compare: %w", err)
	}
	var r report.Report
	if err := json.Unmarshal(b, &r); err != nil {
		return nil, fmt.Errorf("compare: %s: %w", path, err)
	}
	if r.Schema != report.ReportSchema {
		return nil, fmt.Errorf("compare: %s: schema %q, want %q", path, r.Schema, report.ReportSchema)
	}
	// The per-request comparisons resample the entries a run keeps in
	// requests.jsonl beside its report.
	r.SetRunDir(filepath.Dir(path))
	if err := r.LoadRequests(); err != nil {
		return nil, fmt.Errorf("compare: %w", err)
	}
	return &r, nil
}
