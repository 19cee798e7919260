package matchers

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"time"

	"github.com/onsi/gomega/types"

	"github.com/servebench/servebench/internal/numfmt"
	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/servebench/report"
	"github.com/servebench/servebench/servebench/stats"
)

// HaveLatencyPercentileBelow succeeds when the p-th percentile (0 < p <=
// 100) of the report's metric is at most limit. The percentile is computed
// from the report's raw samples with its declared method (nearest-rank
// unless the run asked for linear interpolation) over the metric's own
// population, which the message names with its size: TTFT, TPOT, E2E and
// last-token latency over successful requests, ITL pooled over proven
// single-token gaps, chunk gaps pooled over content events, schedule lag
// over every sent request.
//
//	Expect(report).To(matchers.HaveLatencyPercentileBelow(record.MetricTTFT, 99, 200*time.Millisecond))
//	Expect(report).To(matchers.HaveLatencyPercentileBelow(record.MetricScheduleLag, 99, 2*time.Millisecond))
//
// A percentile outside (0, 100], a negative limit, an unknown metric and an
// empty population are errors: a percentile of nothing is not a pass.
func HaveLatencyPercentileBelow(metric record.Metric, p float64, limit time.Duration) types.GomegaMatcher {
	return percentileMatcher{metric: metric, p: p, limit: limit}
}

// percentileMatcher holds only its expectation; see
// HaveLatencyPercentileBelow.
type percentileMatcher struct {
	metric record.Metric
	p      float64
	limit  time.Duration
}

// percentileVerdict is the matcher's judgment of one report.
type percentileVerdict struct {
	report     *report.Report
	value      float64
	n          int
	population string
	pass       bool
}

// evaluate judges actual; it keeps nothing, so every method may call it.
func (m percentileMatcher) evaluate(actual any) (percentileVerdict, error) {
	const who = "HaveLatencyPercentileBelow"
	if math.IsNaN(m.p) || m.p <= 0 || m.p > 100 {
		return percentileVerdict{}, fmt.Errorf("%s needs a percentile in (0, 100], got %v", who, m.p)
	}
	if m.limit < 0 {
		return percentileVerdict{}, fmt.Errorf("%s needs a non-negative limit, got %s", who, m.limit)
	}
	r, err := reportFrom(who, actual)
	if err != nil {
		return percentileVerdict{}, err
	}
	value, n, population, err := r.Percentile(m.metric, m.p)
	if err != nil {
		return percentileVerdict{}, fmt.Errorf("%s cannot compute %s %s: %w", who, m.pLabel(), metricLabel(m.metric), err)
	}
	if n == 0 {
		return percentileVerdict{}, fmt.Errorf("%s cannot judge %s %s: its population (%s) is empty (terminal statuses: %s)",
			who, m.pLabel(), metricLabel(m.metric), population, statusCounts(r))
	}
	limitMS := float64(m.limit) / float64(time.Millisecond)
	return percentileVerdict{report: r, value: value, n: n, population: population, pass: value <= limitMS}, nil
}

// Match reports whether the percentile stays within the limit.
func (m percentileMatcher) Match(actual any) (bool, error) {
	v, err := m.evaluate(actual)
	return v.pass, err
}

// FailureMessage states the percentile with its population and lists the
// requests with the largest values.
func (m percentileMatcher) FailureMessage(actual any) string {
	v, err := m.evaluate(actual)
	if err != nil {
		return err.Error()
	}
	return m.headline(v, "to be at most") +
		lineList("requests with the largest "+perRequestLabel(m.metric), m.largest(v.report))
}

// NegatedFailureMessage states the percentile with its population.
func (m percentileMatcher) NegatedFailureMessage(actual any) string {
	v, err := m.evaluate(actual)
	if err != nil {
		return err.Error()
	}
	return m.headline(v, "to be above")
}

// headline states the measured percentile, its method and population.
func (m percentileMatcher) headline(v percentileVerdict, relation string) string {
	method := v.report.PercentileMethod
	if method == "" {
		method = stats.NearestRank
	}
	return fmt.Sprintf("Expected %s %s %s (%s, n = %d) %s %s\npopulation: %s",
		m.pLabel(), metricLabel(m.metric), numfmt.MS(v.value), method, v.n, relation, numfmt.DurationMS(m.limit), v.population)
}

// String names the objective, for MeetSLOs and spec reports.
func (m percentileMatcher) String() string {
	return fmt.Sprintf("%s %s <= %s", m.pLabel(), metricLabel(m.metric), numfmt.DurationMS(m.limit))
}

// pLabel renders the percentile: p99, p99.9.
func (m percentileMatcher) pLabel() string {
	return "p" + strconv.FormatFloat(m.p, 'f', -1, 64)
}

// largest renders the requests with the largest per-request value of the
// metric, from the largest down.
func (m percentileMatcher) largest(r *report.Report) []string {
	type valued struct {
		rs report.RequestScore
		v  float64
	}
	var list []valued
	for _, rs := range requestEntries(r) {
		if m.metric != record.MetricScheduleLag && rs.Status != record.StatusSuccess {
			continue
		}
		if v := perRequestValue(m.metric, rs); v != nil {
			list = append(list, valued{rs, *v})
		}
	}
	sort.SliceStable(list, func(i, j int) bool { return list[i].v > list[j].v })
	lines := make([]string, len(list))
	for i, x := range list {
		lines[i] = requestLine(x.rs)
		if extra := perRequestExtra(m.metric, x.v); extra != "" {
			lines[i] += "; " + extra
		}
	}
	return lines
}

// Measured states the percentile with its population's size: "212.3 ms
// (n = 40)".
func (m percentileMatcher) Measured(actual any) (string, error) {
	v, err := m.evaluate(actual)
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("%s (n = %d)", numfmt.MS(v.value), v.n), nil
}
