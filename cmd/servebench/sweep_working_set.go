package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"math"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/servebench/servebench/fixtures"
	"github.com/servebench/servebench/internal/safefile"
	"github.com/servebench/servebench/servebench"
	"github.com/servebench/servebench/servebench/enginemetrics"
	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/servebench/report"
	"github.com/servebench/servebench/servebench/schedule"
)

// workingSetFile is the working-set sweep's result in its output directory.
const workingSetFile = "working_set.json"

// workingSetFlags are the flags of the KV working-set sweep.
type workingSetFlags struct {
	points     string
	kvCapacity int
}

func (w *workingSetFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&w.points, "working-set", "", "comma-separated multiples of the engine's KV capacity, e.g. 0.5,1,2,4: one point per multiple at --rate, the shared-prefix workload (--prefix-tokens per group, --prompt-tokens, --max-tokens) sized so that its distinct prefixes hold that many times the capacity; writes working_set.json (excludes --rates and --users auto)")
	fs.IntVar(&w.kvCapacity, "kv-capacity-tokens", 0, "--working-set: the engine's KV capacity in tokens (default: num_gpu_blocks × block_size from vllm:cache_config_info at --metrics-url)")
}

// workingSetPoint is one point of the sweep, as working_set.json gives it.
type workingSetPoint struct {
	// Multiple is k: the distinct prefixes hold k × the KV capacity.
	Multiple float64 `json:"multiple"`
	// Groups is the number of distinct prefixes, PrefixTokens each, and
	// WorkingSetTokens their total.
	Groups           int `json:"groups"`
	PrefixTokens     int `json:"prefix_tokens"`
	WorkingSetTokens int `json:"working_set_tokens"`
	// Dir is the point's run directory.
	Dir string `json:"dir"`
	// Offered and Valid are the run's.
	Offered int  `json:"offered"`
	Valid   bool `json:"valid"`
	// HitRate is the requests' cached over prompt tokens, EngineHitRate the
	// engine's from its counters; HitRateByTier SGLang's per cache_source.
	HitRate       *float64           `json:"hit_rate"`
	EngineHitRate *float64           `json:"engine_hit_rate"`
	HitRateByTier map[string]float64 `json:"hit_rate_by_tier,omitempty"`
	// TTFTP50MS and TTFTP99MS are the run's TTFT percentiles.
	TTFTP50MS *float64 `json:"ttft_p50_ms"`
	TTFTP99MS *float64 `json:"ttft_p99_ms"`
}

// workingSetResult is working_set.json.
type workingSetResult struct {
	KVCapacityTokens int               `json:"kv_capacity_tokens"`
	CapacitySource   string            `json:"kv_capacity_source"`
	RateRPS          float64           `json:"rate_rps"`
	CacheState       string            `json:"cache_state"`
	Points           []workingSetPoint `json:"points"`
}

// workingSetSweep runs the working-set sweep when --working-set is given
// (done, with its exit code), and refuses --rate without it, which only
// that sweep takes.
func (f *runFlags) workingSetSweep(ws workingSetFlags, rates, batchSizes string, stdout, stderr io.Writer) (int, bool) {
	if ws.points == "" {
		if f.given["rate"] {
			fmt.Fprintln(stderr, "servebench sweep: --rate is refused: a sweep takes its rates from --rates (--rate goes with --working-set)")
			return 1, true
		}
		return 0, false
	}
	multiples, err := parseMultiples(ws.points)
	if err == nil {
		err = f.checkWorkingSetFlags(rates, batchSizes)
	}
	var cfg servebench.RunConfig
	if err == nil {
		cfg, err = f.config(stderr)
	}
	if err != nil {
		fmt.Fprintf(stderr, "servebench sweep: %v\n", err)
		return 1, true
	}
	return withInterrupts("servebench sweep", stderr, func(ctx context.Context) int {
		return f.executeWorkingSet(ctx, cfg, multiples, ws.kvCapacity, stdout, stderr)
	}), true
}

// parseMultiples reads --working-set: positive finite numbers.
func parseMultiples(s string) ([]float64, error) {
	var out []float64
	for _, part := range strings.Split(s, ",") {
		v, err := strconv.ParseFloat(strings.TrimSpace(part), 64)
		if err != nil || !(v > 0) || math.IsInf(v, 0) {
			return nil, fmt.Errorf("--working-set: %q is not a positive multiple of the KV capacity", part)
		}
		out = append(out, v)
	}
	return out, nil
}

// checkWorkingSetFlags refuses what a working-set sweep cannot take.
func (f *runFlags) checkWorkingSetFlags(rates string, batchSizes string) error {
	switch {
	case rates != "":
		return errors.New("--working-set and --rates: the working-set sweep runs every point at --rate")
	case f.users.auto:
		return errors.New("--working-set and --users auto: the working-set sweep runs every point at --rate")
	case batchSizes != "":
		return errors.New("--working-set and --batch-sizes: give one axis")
	case !(f.rate > 0):
		return errors.New("--working-set: give --rate, the offered rate of every point")
	case f.workload != "":
		return errors.New("--working-set: the sweep sizes its own shared-prefix workload; give --prefix-tokens, --prompt-tokens and --max-tokens instead of --workload")
	case f.synthetic.prefixTokens.name == "" || f.synthetic.promptTokens.name == "":
		return errors.New("--working-set: give --prefix-tokens (each group's prefix) and --prompt-tokens (the whole prompt)")
	case f.synthetic.prefixTokens.v >= f.synthetic.promptTokens.v:
		return fmt.Errorf("--prefix-tokens: %d must be below --prompt-tokens %d, which holds each row's own question too", f.synthetic.prefixTokens.v, f.synthetic.promptTokens.v)
	}
	return nil
}

// kvCapacity is the engine's KV capacity: --kv-capacity-tokens, else the
// engine's vllm:cache_config_info at --metrics-url. Unknown is an error
// before any load.
func (f *runFlags) kvCapacity(ctx context.Context, given int) (int, string, error) {
	if given > 0 {
		return given, "--kv-capacity-tokens", nil
	}
	if f.metricsURL != "" {
		s := enginemetrics.ScrapeOnce(ctx, f.metricsURL)
		if n, ok := enginemetrics.Between(f.metricsURL, s, s).KVCapacityTokens(); ok {
			return n, "vllm:cache_config_info", nil
		}
	}
	return 0, "", errors.New("--working-set: the engine's KV capacity is unknown: give --kv-capacity-tokens N, or --metrics-url of an engine that exposes vllm:cache_config_info (num_gpu_blocks × block_size)")
}

// workingSetWorkload is the shared-prefix workload of multiple k: groups
// of prefixTokens distinct prefixes holding k × capacity tokens (rounded
// up), each row's question the rest of --prompt-tokens, the rows
// interleaved (one of each group in turn) so that a group comes back only
// after every other one, as many rows as the point sends.
func (f *runFlags) workingSetWorkload(k float64, capacity int, endpoint record.Endpoint) (*schedule.Workload, int, error) {
	prefix := f.synthetic.prefixTokens.v
	groups := max(1, int(math.Ceil(k*float64(capacity)/float64(prefix))))
	rows := syntheticRowsWithoutCount
	if f.count > 0 {
		rows = f.count + f.warmup
	}
	g := fixtures.SharedPrefix{
		Seed: uint64(max(f.seed, 0)), Groups: groups, RequestsPerGroup: max(1, (rows+groups-1)/groups),
		SystemPromptTokens: -1, ContextTokens: prefix, QuestionTokens: f.synthetic.promptTokens.v - prefix,
		MaxTokens: max(1, f.synthetic.maxTokens.v), Output: fixtures.OutputForced, Endpoint: endpoint, Order: "interleaved",
	}
	var buf bytes.Buffer
	if _, err := fixtures.Generate(&buf, g); err != nil {
		return nil, 0, fmt.Errorf("--working-set %g: %w", k, err)
	}
	w, err := schedule.ParseWorkload(fmt.Sprintf("shared-prefix working set %g × %d tokens (%d groups of %d)", k, capacity, groups, prefix), buf.Bytes())
	return w, groups, err
}

// executeWorkingSet runs one point per multiple, each with its own
// workload at the configured rate, writes working_set.json and prints the
// table; it returns the exit code: 0 when every point delivered its load,
// 2 when one did not, 1 on an error.
func (f *runFlags) executeWorkingSet(ctx context.Context, cfg servebench.RunConfig, multiples []float64, given int, stdout, stderr io.Writer) int {
	capacity, source, err := f.kvCapacity(ctx, given)
	if err != nil {
		fmt.Fprintf(stderr, "servebench sweep: %v\n", err)
		return 1
	}
	defer f.metricsListen.stop()
	defer f.images.close()
	defer unloadAdapters(&cfg, stderr)
	if err := f.beforeLoad(ctx, &cfg, stderr); err != nil {
		fmt.Fprintf(stderr, "servebench sweep: %v\n", err)
		return 1
	}
	defer finishOutput(f.out, "sweep", stderr)
	res := workingSetResult{KVCapacityTokens: capacity, CapacitySource: source, RateRPS: f.rate, CacheState: report.CacheStateUncontrolled}
	if cfg.ResetPrefixCache {
		res.CacheState = report.CacheStateReset
	}
	code := 0
	for _, k := range multiples {
		p, valid, err := f.workingSetPoint(ctx, cfg, k, capacity)
		if err != nil {
			fmt.Fprintf(stderr, "servebench sweep: %v\n", err)
			code = 1
			break
		}
		res.Points = append(res.Points, p)
		if !valid && code == 0 {
			code = 2
		}
		if ctx.Err() != nil {
			break
		}
	}
	if err := writeWorkingSet(cfg.OutputDir, res); err != nil {
		fmt.Fprintf(stderr, "servebench sweep: %v\n", err)
		return 1
	}
	printWorkingSet(stdout, res)
	fmt.Fprintf(stderr, "sweep directory: %s (%s, working-set-*)\n", cfg.OutputDir, workingSetFile)
	return code
}

// workingSetPoint runs the point of multiple k.
func (f *runFlags) workingSetPoint(ctx context.Context, cfg servebench.RunConfig, k float64, capacity int) (workingSetPoint, bool, error) {
	w, groups, err := f.workingSetWorkload(k, capacity, cfg.Client.ResolvedEndpoint())
	if err != nil {
		return workingSetPoint{}, false, err
	}
	point := cfg
	point.Workload = w
	point.OutputDir = filepath.Join(cfg.OutputDir, "working-set-"+strconv.FormatFloat(k, 'g', -1, 64))
	run, err := servebench.Run(ctx, point)
	if run == nil || run.Report == nil {
		return workingSetPoint{}, false, fmt.Errorf("--working-set %g: %w", k, err)
	}
	rep := run.Report
	p := workingSetPoint{Multiple: k, Groups: groups, PrefixTokens: f.synthetic.prefixTokens.v, WorkingSetTokens: groups * f.synthetic.prefixTokens.v,
		Dir: point.OutputDir, Offered: rep.Offered, Valid: rep.Valid, HitRateByTier: rep.EngineMetrics.PrefixCacheHitRateByTier()}
	if pc := rep.PrefixCache; pc != nil {
		p.HitRate, p.EngineHitRate = pc.HitRate, pc.EngineHitRate
	}
	if d, ok := rep.Percentiles[record.MetricTTFT]; ok {
		p.TTFTP50MS, p.TTFTP99MS = d.P50, d.P99
	}
	return p, rep.Valid, nil
}

// writeWorkingSet writes working_set.json into dir.
func writeWorkingSet(dir string, res workingSetResult) error {
	b, err := json.MarshalIndent(res, "", "  ")
	if err != nil {
		return err
	}
	return safefile.WriteWhole(filepath.Join(dir, workingSetFile), append(b, '\n'))
}

// printWorkingSet prints the points as a table.
func printWorkingSet(w io.Writer, res workingSetResult) {
	fmt.Fprintf(w, "KV working-set sweep at %g req/s: KV capacity %d tokens (from %s), cache %s\n", res.RateRPS, res.KVCapacityTokens, res.CapacitySource, res.CacheState)
	fmt.Fprintf(w, "  %-8s %7s %13s %9s %11s %10s %10s\n", "multiple", "groups", "prefix tokens", "hit rate", "engine hit", "TTFT p50", "TTFT p99")
	for _, p := range res.Points {
		fmt.Fprintf(w, "  %-8g %7d %13d %9s %11s %10s %10s\n", p.Multiple, p.Groups, p.WorkingSetTokens,
			fraction(p.HitRate), fraction(p.EngineHitRate), millis(p.TTFTP50MS), millis(p.TTFTP99MS))
		for _, tier := range slices.Sorted(maps.Keys(p.HitRateByTier)) {
			fmt.Fprintf(w, "  %-8s tier %s: hit rate %.3f\n", "", tier, p.HitRateByTier[tier])
		}
	}
}

// fraction renders a rate, or "-" when undefined.
func fraction(v *float64) string {
	if v == nil {
		return "-"
	}
	return strconv.FormatFloat(*v, 'f', 3, 64)
}

// millis renders milliseconds, or "-" when undefined.
func millis(v *float64) string {
	if v == nil {
		return "-"
	}
	return strconv.FormatFloat(*v, 'f', 1, 64) + " ms"
}
