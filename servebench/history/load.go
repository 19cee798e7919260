package history

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/servebench/servebench/servebench/compare"
	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/servebench/report"
)

// Load reads one release from each path, in the order given: an A/B
// directory (its compare.json: the candidate's figures), a compare.json
// file, a run directory or a directory of round-K or run-K run directories
// (the mean over its runs), or a report.json file. With byTime, the
// releases are put in the order of their run IDs (UUIDv7, so the order the
// runs started in) instead.
func Load(paths []string, byTime bool) ([]Release, error) {
	var out []Release
	for _, p := range paths {
		r, err := loadOne(p)
		if err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	if byTime {
		for _, r := range out {
			if r.RunID == "" {
				return nil, fmt.Errorf("history: %s records no run ID, so it cannot be put in time order; give the releases in order", r.Path)
			}
		}
		sort.SliceStable(out, func(i, j int) bool { return out[i].RunID < out[j].RunID })
	}
	return out, nil
}

// loadOne reads one release.
func loadOne(path string) (Release, error) {
	name := filepath.Base(strings.TrimSuffix(path, string(filepath.Separator)))
	switch {
	case strings.HasSuffix(path, ".json"):
		name = filepath.Base(filepath.Dir(path))
		if filepath.Base(path) == compare.ComparisonFile {
			return comparisonRelease(name, path)
		}
		return reportsRelease(name, path, filepath.Dir(path))
	case exists(filepath.Join(path, compare.ComparisonFile)):
		return comparisonRelease(name, filepath.Join(path, compare.ComparisonFile))
	}
	return reportsRelease(name, path, path)
}

// exists reports whether path names a file.
func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// comparisonRelease reads a compare.json: the release is its candidate.
func comparisonRelease(name, path string) (Release, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return Release{}, fmt.Errorf("history: %w", err)
	}
	var c compare.Comparison
	if err := json.Unmarshal(b, &c); err != nil {
		return Release{}, fmt.Errorf("history: %s: %w", path, err)
	}
	if c.Schema != compare.ComparisonSchema {
		return Release{}, fmt.Errorf("history: %s: schema %q, want %q", path, c.Schema, compare.ComparisonSchema)
	}
	r := Release{Name: name, Path: path, Values: map[string]float64{}}
	if len(c.CandidateRuns) > 0 {
		r.RunID = c.CandidateRuns[0].RunID
	}
	for _, m := range c.Comparisons {
		if finite(m.Candidate) {
			r.Values[m.Name] = m.Candidate
		}
	}
	return r, nil
}

// reportsRelease reads the run (or the rounds) in dir: each metric is the
// mean over the runs.
func reportsRelease(name, path, dir string) (Release, error) {
	reports, _, err := compare.LoadSide(dir)
	if err != nil {
		return Release{}, fmt.Errorf("history: %w", err)
	}
	r := Release{Name: name, Path: path, Values: map[string]float64{}}
	if reports[0].Experiment != nil {
		r.RunID = reports[0].Experiment.RunID
	}
	for _, m := range Metrics() {
		var sum float64
		ok := true
		for _, rep := range reports {
			v, has := reportValue(rep, m)
			ok = ok && has
			sum += v
		}
		if ok {
			r.Values[m] = sum / float64(len(reports))
		}
	}
	return r, nil
}

// reportValue is one metric's figure on one run.
func reportValue(r *report.Report, m string) (float64, bool) {
	switch m {
	case "attainment":
		if r.Attainment == nil {
			return 0, false
		}
		return *r.Attainment, true
	case "error_rate":
		if r.Offered == 0 {
			return 0, false
		}
		return float64(r.Offered-r.ProtocolSuccesses) / float64(r.Offered), true
	case QualifiedRPS:
		if r.QualifiedRPS == nil {
			return 0, false
		}
		return *r.QualifiedRPS, true
	case OutputTokensPerSecond:
		return outputTokensPerSecond(r)
	}
	metric, p, _ := strings.Cut(m, "_p")
	var pct float64
	if _, err := fmt.Sscan(p, &pct); err != nil {
		return 0, false
	}
	v, _, _, err := r.Percentile(record.Metric(metric+"_ms"), pct)
	return v, err == nil
}

// outputTokensPerSecond is the run's output tokens per second over its
// horizon, counted on the successful requests: the report's throughput
// entry, else its output-token total over the horizon. ok is false when
// no success reported a token count or the horizon is empty.
func outputTokensPerSecond(r *report.Report) (float64, bool) {
	for _, t := range r.Throughput {
		if t.Unit == record.ThroughputOutputTokens {
			return t.PerSecond, t.Reported > 0
		}
	}
	if r.OutputTokens <= 0 || !(r.HorizonMS > 0) {
		return 0, false
	}
	return float64(r.OutputTokens) / (r.HorizonMS / 1000), true
}
