package compare

import (
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"

	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/servebench/report"
)

// Kind says how a comparison measures change.
type Kind string

// The kinds of change.
const (
	// KindRelative compares a ratio: candidate/baseline − 1 (inverted when
	// less is worse).
	KindRelative Kind = "relative"
	// KindAbsolute compares a difference of fractions.
	KindAbsolute Kind = "absolute"
)

// Tolerance is how much worse the candidate may be on one named statistic.
type Tolerance struct {
	// Name is attainment, error_rate, qualified_rps or <metric>_p<N> (e.g.
	// ttft_p99, tpot_p50, e2e_p99.9). Attainment, the error rate and a
	// per-request latency percentile may be narrowed to one value of a
	// breakdown dimension: ttft_p99[adapter=sql], error_rate[modality=image].
	Name string
	// Value is a fraction: 0.05 is 5 % for a relative comparison and five
	// points for an absolute one.
	Value float64
}

// DefaultTolerances are compared when none is named: attainment may drop
// by one point, the error rate may rise by one point, and each of TTFT,
// TPOT and E2E at p50 and p99 may rise by 5 %.
func DefaultTolerances() []Tolerance {
	return []Tolerance{
		{"attainment", 0.01}, {"error_rate", 0.01},
		{"ttft_p50", 0.05}, {"ttft_p99", 0.05},
		{"tpot_p50", 0.05}, {"tpot_p99", 0.05},
		{"e2e_p50", 0.05}, {"e2e_p99", 0.05},
	}
}

// definedTolerances keeps the tolerances on statistics that endpoint e
// defines: the default TTFT and TPOT comparisons are left out for an
// embeddings or rerank run, which has neither.
func definedTolerances(tols []Tolerance, e record.Endpoint) []Tolerance {
	api, ok := record.APIOf(e)
	if e == "" || !ok {
		return tols
	}
	out := make([]Tolerance, 0, len(tols))
	for _, t := range tols {
		if st, err := statisticFor(t.Name); err == nil && st.metric != "" && !api.Defines(st.metric) {
			continue
		}
		out = append(out, t)
	}
	return out
}

// ParseTolerance reads NAME=VALUE, where VALUE is a fraction (0.1) or a
// percentage (10%). The name must be one Compare knows; its breakdown
// selection, if any, may hold an = of its own (ttft_p99[adapter=sql]=10%).
func ParseTolerance(s string) (Tolerance, error) {
	cut := 0
	if i := strings.IndexByte(s, ']'); i >= 0 {
		cut = i
	}
	name, value, ok := strings.Cut(s[cut:], "=")
	name = s[:cut] + name
	if !ok || name == "" || value == "" {
		return Tolerance{}, fmt.Errorf("tolerance %q: want NAME=VALUE, e.g. ttft_p99=10%% or attainment=0.02", s)
	}
	var v float64
	var err error
	if pct, isPct := strings.CutSuffix(value, "%"); isPct {
		v, err = strconv.ParseFloat(pct, 64)
		v /= 100
	} else {
		v, err = strconv.ParseFloat(value, 64)
	}
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) || v <= 0 {
		return Tolerance{}, fmt.Errorf("tolerance %q: value %q is not a positive fraction or percentage (with 0 any measurable slowdown is a regression)", s, value)
	}
	t := Tolerance{Name: name, Value: v}
	if _, err := statisticFor(name); err != nil {
		return Tolerance{}, fmt.Errorf("tolerance %q: %w", s, err)
	}
	return t, nil
}

// statistic is what one comparison measures on each run.
type statistic struct {
	// name is the statistic as named, selection included; base is the
	// name without its selection (attainment, ttft_p99).
	name, base string
	// sel narrows it to one breakdown value; nil is the whole run.
	sel  *selection
	kind Kind
	// lessIsWorse is true for qualified_rps and attainment.
	lessIsWorse bool
	// metric and p name a latency percentile; metric is empty otherwise.
	metric record.Metric
	p      float64
}

var percentileName = regexp.MustCompile(`^([a-z0-9_]+)_p([0-9]+(?:\.[0-9]+)?)$`)

// requestMetrics are the latency populations with one value per request:
// the only ones a single round can resample.
var requestMetrics = map[record.Metric]bool{
	record.MetricTTFT: true, record.MetricTTFTFromScheduled: true, record.MetricTPOT: true,
	record.MetricE2E: true, record.MetricLastToken: true, record.MetricScheduleLag: true,
	report.MetricMaxGap: true,
}

// pooledMetrics pool gaps over requests; they compare across rounds only.
var pooledMetrics = map[record.Metric]bool{
	record.MetricITL: true, record.MetricChunkGap: true, record.MetricClientQueue: true,
}

// statisticFor resolves a tolerance name.
func statisticFor(name string) (statistic, error) {
	base, sel, err := parseSelection(name)
	if err != nil {
		return statistic{}, err
	}
	s, err := baseStatistic(base)
	if err != nil {
		return statistic{}, err
	}
	if sel != nil && (s.base == "qualified_rps" || pooledMetrics[s.metric]) {
		return statistic{}, fmt.Errorf("statistic %q: %s is a figure of the whole run; a breakdown selection takes attainment, error_rate or a per-request latency percentile", name, base)
	}
	s.name, s.sel = name, sel
	return s, nil
}

// baseStatistic resolves a name without a breakdown selection.
func baseStatistic(name string) (statistic, error) {
	switch name {
	case "attainment":
		return statistic{name: name, base: name, kind: KindAbsolute, lessIsWorse: true}, nil
	case "error_rate":
		return statistic{name: name, base: name, kind: KindAbsolute}, nil
	case "qualified_rps":
		return statistic{name: name, base: name, kind: KindRelative, lessIsWorse: true}, nil
	}
	m := percentileName.FindStringSubmatch(name)
	if m == nil {
		return statistic{}, fmt.Errorf("unknown statistic %q: want attainment, error_rate, qualified_rps or <metric>_p<N> such as ttft_p99", name)
	}
	metric := record.Metric(m[1] + "_ms")
	if !requestMetrics[metric] && !pooledMetrics[metric] {
		return statistic{}, fmt.Errorf("unknown metric %q in %q: want one of ttft, ttft_from_scheduled, tpot, itl, chunk_gap, max_gap, e2e, last_token, schedule_lag, client_queue", m[1], name)
	}
	p, _ := strconv.ParseFloat(m[2], 64)
	if p <= 0 || p > 100 {
		return statistic{}, fmt.Errorf("percentile p%v in %q is outside (0, 100]", m[2], name)
	}
	return statistic{name: name, base: name, kind: KindRelative, metric: metric, p: p}, nil
}
