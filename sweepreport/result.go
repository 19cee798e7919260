// Package sweepreport turns a sweep into the files a capacity planner
// reads: sweep.json (one row per tested rate and repeat, the knee and the
// rule that selected it), sweep.html (latency, attainment and goodput
// against offered rate, drawn with gonum.org/v1/plot), and the Pareto front
// of several sweeps of one workload.
package sweepreport

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"

	"github.com/servebench/servebench/internal/numfmt"
	"github.com/servebench/servebench/internal/safefile"
	"github.com/servebench/servebench/servebench/capacity"
	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/servebench/report"
	"github.com/servebench/servebench/servebench/schedule"
	"github.com/servebench/servebench/servebench/stats"
)

// Schema names the version of sweep.json.
const Schema = "servebench.sweep/v1"

// The files a sweep writes in its directory.
const (
	JSONFile = "sweep.json"
	HTMLFile = "sweep.html"
)

// Result is sweep.json: what was swept, every run, and the knee.
type Result struct {
	Schema string `json:"schema"`
	// WorkloadSHA256 is the hash of the workload every run replayed; empty
	// when the runs disagree or did not record it.
	WorkloadSHA256 string `json:"workload_sha256"`
	// Arrival is the arrival process the rates were applied to.
	Arrival *schedule.ArrivalSpec `json:"arrival"`
	// SLO is the latency objective the requests were judged by (from the
	// first run).
	SLO *report.SLO `json:"slo"`
	// Rule is the capacity rule, with its defaults filled in.
	Rule capacity.Rule `json:"rule"`
	// Rates has one row per run, in the order they ran.
	Rates []Rate `json:"rates"`
	// KneeRPS is the SLO capacity as the sweep selects it: the highest
	// tested rate that passed; nil when none did.
	KneeRPS *float64 `json:"knee_rps"`
	// KneeRule says what KneeRPS is.
	KneeRule string `json:"knee_rule"`
	// FailingNeighborRPS is the lowest tested rate above the knee that did
	// not pass.
	FailingNeighborRPS *float64 `json:"failing_neighbor_rps"`
	// Monotonic is false when a tested rate below the knee did not pass.
	Monotonic bool `json:"monotonic"`
	// InconclusiveRPS lists the rates that did not pass only because a
	// criterion could not be judged.
	InconclusiveRPS []float64 `json:"inconclusive_rps"`
	// GeneratorBoundRPS lists the rates whose objectives held but whose
	// load the client did not deliver (verdict generator_bound).
	GeneratorBoundRPS []float64 `json:"generator_bound_rps"`
	// Notes says what the selection cannot show.
	Notes []string `json:"notes"`
	// Auto is the knee search that chose the rates, when one did.
	Auto *capacity.AutoRates `json:"auto,omitempty"`
	// AutoUsers is the closed-loop user search that chose the points, when
	// one did; SLOConcurrencyUsers is then its SLO concurrency, the highest
	// passing tested number of users (nil when none passed). KneeRPS is
	// nil for a user search: users are not a rate.
	AutoUsers           *capacity.AutoUsers `json:"auto_users,omitempty"`
	SLOConcurrencyUsers *int                `json:"slo_concurrency_users,omitempty"`
	// Capacity is the answer as a bracket with its confidence: low is the
	// highest passing tested point, high the lowest failing one, unit
	// "req/s" or "users" (see capacity.Bracket).
	Capacity capacity.Bracket `json:"capacity"`
}

// Rate is one run of a sweep.
type Rate struct {
	// RateRPS is the nominal rate asked for; OfferedRPS the realized one
	// (offered requests per arrival window, as in report.json).
	RateRPS float64 `json:"rate_rps"`
	// Users is the closed-loop users of a user search's run.
	Users      int      `json:"users,omitempty"`
	Repeat     int      `json:"repeat"`
	OfferedRPS *float64 `json:"offered_rps"`
	Offered    int      `json:"offered"`
	Qualified  int      `json:"qualified"`
	Attainment *float64 `json:"attainment"`
	// WilsonLower and WilsonUpper are the one-sided Wilson bounds of
	// attainment at the rule's confidence.
	WilsonLower   *float64 `json:"wilson_lower"`
	WilsonUpper   *float64 `json:"wilson_upper"`
	QualifiedRPS  *float64 `json:"qualified_rps"`
	SuccessfulRPS *float64 `json:"successful_rps"`
	// OutputTokensPerS sums the output tokens of successful requests over
	// the run's horizon; nil when no success reported its tokens.
	OutputTokensPerS *float64 `json:"output_tokens_per_s"`
	TTFTP50MS        *float64 `json:"ttft_p50_ms"`
	TTFTP90MS        *float64 `json:"ttft_p90_ms"`
	TTFTP99MS        *float64 `json:"ttft_p99_ms"`
	TPOTP50MS        *float64 `json:"tpot_p50_ms"`
	TPOTP90MS        *float64 `json:"tpot_p90_ms"`
	TPOTP99MS        *float64 `json:"tpot_p99_ms"`
	E2EP50MS         *float64 `json:"e2e_p50_ms"`
	E2EP90MS         *float64 `json:"e2e_p90_ms"`
	E2EP99MS         *float64 `json:"e2e_p99_ms"`
	MaxScheduleLagMS *float64 `json:"max_schedule_lag_ms"`
	// Backlog is the run's backlog judgment; nil when not measured.
	Backlog *report.Backlog `json:"backlog"`
	// Verdict is one of capacity.Verdicts(): "pass", "fail",
	// "inconclusive", "generator_bound" (the objectives held, the client
	// did not deliver the load) or "interrupted" (nothing is derived from
	// it); kept a string so that the set can grow. Reasons says why not
	// pass. DecidingWindowMS is the window that would decide an
	// inconclusive backlog.
	Verdict          string   `json:"verdict"`
	Reasons          []string `json:"reasons"`
	DecidingWindowMS *float64 `json:"deciding_window_ms,omitempty"`
	// RunDir is the run's directory, relative to the sweep's.
	RunDir string `json:"run_dir"`
	// BatchSize is the inputs per request of a batch-size sweep's point;
	// absent for a rate sweep.
	BatchSize int `json:"batch_size,omitempty"`
}

// FromSweep summarizes a sweep; dir is the sweep's directory, against which
// run directories are made relative.
func FromSweep(sw *capacity.Sweep, dir string) Result {
	rule := sw.Rule
	if rule.MinAttainment == 0 {
		rule.MinAttainment = 0.95
	}
	if rule.Confidence == 0 {
		rule.Confidence = 0.95
	}
	res, verdicts := selection(sw, rule)
	if res.InconclusiveRPS == nil {
		res.InconclusiveRPS = []float64{}
	}
	if res.GeneratorBoundRPS == nil {
		res.GeneratorBoundRPS = []float64{}
	}
	if res.Notes == nil {
		res.Notes = []string{}
	}
	if res.KneeRPS != nil || res.SLOConcurrencyUsers != nil {
		res.KneeRule += " (" + ruleText(rule) + ")"
	}
	hashes := map[string]bool{}
	for i, p := range sw.Points {
		r := p.Report
		if r == nil {
			continue
		}
		hashes[r.Inputs.WorkloadSHA256] = true
		if res.SLO == nil {
			slo := r.SLO
			res.SLO = &slo
		}
		if res.Arrival == nil && r.Experiment != nil {
			a := r.Experiment.Arrival
			res.Arrival = &a
		}
		res.Rates = append(res.Rates, rateRow(p, verdicts[i], rule, dir))
	}
	if len(hashes) == 1 {
		for h := range hashes {
			res.WorkloadSHA256 = h
		}
	}
	return res
}

// selection starts the result with the sweep's selection: the SLO
// capacity of a rate sweep, or the SLO concurrency of a user search; both
// with the bracket. It returns the point verdicts too.
func selection(sw *capacity.Sweep, rule capacity.Rule) (Result, []capacity.PointVerdict) {
	res := Result{Schema: Schema, Arrival: sw.Arrival, Rule: rule, Rates: make([]Rate, 0, len(sw.Points)),
		Auto: sw.Auto, AutoUsers: sw.AutoUsers, Capacity: capacity.BracketOf(sw.Points, rule)}
	if res.Capacity.OfUsers() {
		sel := capacity.SelectConcurrency(sw.Points, rule)
		res.SLOConcurrencyUsers, res.KneeRule, res.Monotonic, res.Notes = sel.Users, sel.Label, sel.Monotonic, sel.Notes
		return res, sel.Verdicts
	}
	sel := capacity.Select(sw.Points, rule)
	res.KneeRPS, res.KneeRule, res.FailingNeighborRPS, res.Monotonic = sel.RPS, sel.Label, sel.FailingNeighborRPS, sel.Monotonic
	res.InconclusiveRPS, res.GeneratorBoundRPS, res.Notes = sel.InconclusiveRPS, sel.GeneratorBoundRPS, sel.Notes
	return res, sel.Verdicts
}

// ruleText states a capacity rule in words.
func ruleText(rule capacity.Rule) string {
	s := fmt.Sprintf("attainment ≥ %g", rule.MinAttainment)
	if rule.UseWilsonLower {
		s = fmt.Sprintf("Wilson %s lower bound of attainment ≥ %g", numfmt.Level(rule.Confidence), rule.MinAttainment)
	}
	s += ", load delivered"
	if rule.RequireNoBacklogGrowth {
		s += ", no backlog growth"
	}
	return s
}

func rateRow(p capacity.Point, v capacity.PointVerdict, rule capacity.Rule, dir string) Rate {
	r := p.Report
	row := Rate{RateRPS: p.OfferedRPS, Users: p.Users, Repeat: max(p.Repeat, 1), OfferedRPS: r.OfferedRPS, Offered: r.Offered, Qualified: r.Qualified,
		Attainment: r.Attainment, WilsonLower: v.WilsonLower, QualifiedRPS: r.QualifiedRPS, SuccessfulRPS: r.SuccessfulRPS,
		MaxScheduleLagMS: r.MaxScheduleLagMS, Backlog: r.Backlog, Verdict: v.Verdict, Reasons: v.Reasons,
		DecidingWindowMS: v.DecidingWindowMS, RunDir: p.RunDir, BatchSize: p.BatchSize}
	if lo, ok := stats.WilsonLower(r.Offered-r.Qualified, r.Offered, rule.Confidence); ok {
		upper := 1 - lo
		row.WilsonUpper = &upper
	}
	if row.RateRPS == 0 && r.OfferedRPS != nil {
		row.RateRPS = *r.OfferedRPS
	}
	if row.Reasons == nil {
		row.Reasons = []string{}
	}
	if dir != "" && p.RunDir != "" {
		if rel, err := filepath.Rel(dir, p.RunDir); err == nil {
			row.RunDir = filepath.ToSlash(rel)
		}
	}
	get := func(m record.Metric) report.Distribution { return r.Percentiles[m] }
	ttft, tpot, e2e := get(record.MetricTTFT), get(record.MetricTPOT), get(record.MetricE2E)
	row.TTFTP50MS, row.TTFTP90MS, row.TTFTP99MS = ttft.P50, ttft.P90, ttft.P99
	row.TPOTP50MS, row.TPOTP90MS, row.TPOTP99MS = tpot.P50, tpot.P90, tpot.P99
	row.E2EP50MS, row.E2EP90MS, row.E2EP99MS = e2e.P50, e2e.P90, e2e.P99
	if r.ProtocolSuccesses > r.OutputTokensUnknown && r.HorizonMS > 0 {
		v := float64(r.OutputTokens) / (r.HorizonMS / 1000)
		if !math.IsInf(v, 0) && !math.IsNaN(v) {
			row.OutputTokensPerS = &v
		}
	}
	return row
}

// MarshalIndent is the JSON form of the result, as written to sweep.json.
func (r Result) MarshalIndent() ([]byte, error) {
	b, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("sweep.json: %w", err)
	}
	return append(b, '\n'), nil
}

// WriteFiles writes sweep.json and sweep.html into dir.
func (r Result) WriteFiles(dir string) error {
	b, err := r.MarshalIndent()
	if err != nil {
		return err
	}
	if err := safefile.WriteFile(filepath.Join(dir, JSONFile), b); err != nil {
		return err
	}
	var page bytes.Buffer
	if err := r.WriteHTML(&page); err != nil {
		return err
	}
	return safefile.WriteFile(filepath.Join(dir, HTMLFile), page.Bytes())
}

// Load reads the sweep.json of dir (or the file itself when path names
// one).
func Load(path string) (Result, error) {
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		path = filepath.Join(path, JSONFile)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return Result{}, err
	}
	var r Result
	dec := json.NewDecoder(bytes.NewReader(b))
	if err := dec.Decode(&r); err != nil {
		return Result{}, fmt.Errorf("%s: %w", path, err)
	}
	if r.Schema != Schema {
		return Result{}, fmt.Errorf("%s: schema %q, want %q", path, r.Schema, Schema)
	}
	return r, nil
}
