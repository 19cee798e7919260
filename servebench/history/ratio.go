package history

import (
	"fmt"
	"slices"

	"github.com/servebench/servebench/servebench/stats"
)

// Policy names the rule that judges a history's newest release.
type Policy string

// The policies.
const (
	// PolicyChangepoint judges the newest release by the e-divisive
	// analysis: a regression when a change beyond its tolerance starts
	// there.
	PolicyChangepoint Policy = "changepoint"
	// PolicyRatio is the PyTorch HUD's rule: a release violates when a
	// latency statistic is above Ratio × the median of the Window
	// releases before it, or a throughput below (2 − Ratio) × that
	// median; the newest release is a regression when it and the one
	// before both violate on one statistic.
	PolicyRatio Policy = "ratio"
)

// ParsePolicy reads a policy's name.
func ParsePolicy(s string) (Policy, error) {
	switch p := Policy(s); p {
	case PolicyChangepoint, PolicyRatio:
		return p, nil
	}
	return "", fmt.Errorf("unknown policy %q: want changepoint or ratio", s)
}

// Defaults of the ratio policy, those of the PyTorch HUD.
const (
	DefaultWindow = 3
	DefaultRatio  = 1.2
)

// RatioAnalysis is the ratio policy applied to every latency and
// throughput series. Attainment and the error rate are not judged by it.
type RatioAnalysis struct {
	// Window is how many releases before one make its baseline (their
	// median); Ratio the allowed factor.
	Window int     `json:"window"`
	Ratio  float64 `json:"ratio"`
	// Series holds one entry per judged metric, in Metrics() order.
	Series []RatioSeries `json:"series"`
}

// RatioSeries is one metric under the ratio policy.
type RatioSeries struct {
	Metric string `json:"metric"`
	// LessIsWorse is true for a throughput (judged against (2 − Ratio) ×
	// baseline), false for a latency (against Ratio × baseline).
	LessIsWorse bool `json:"less_is_worse"`
	// Points are the releases with Window releases before them, in order.
	Points []RatioPoint `json:"points"`
}

// RatioPoint is one release judged against the median of the Window
// releases before it.
type RatioPoint struct {
	Release string  `json:"release"`
	Index   int     `json:"index"`
	Value   float64 `json:"value"`
	// Baseline is the median of the Window releases before; Bound is
	// Ratio × Baseline for a latency and (2 − Ratio) × Baseline for a
	// throughput.
	Baseline float64 `json:"baseline"`
	Bound    float64 `json:"bound"`
	// Violates is true when Value is beyond Bound on the worse side.
	Violates bool `json:"violates"`
}

// ratioJudged reports whether the ratio policy judges metric m, and
// whether less of it is worse.
func ratioJudged(m string) (judged, lessIsWorse bool) {
	switch {
	case throughput(m):
		return true, true
	case relative(m):
		return true, false
	}
	return false, false
}

// analyzeRatio applies the ratio policy to the series of h.
func analyzeRatio(h *History, window int, ratio float64) *RatioAnalysis {
	a := &RatioAnalysis{Window: window, Ratio: ratio, Series: []RatioSeries{}}
	for _, s := range h.Metrics {
		judged, less := ratioJudged(s.Metric)
		if !judged {
			continue
		}
		rs := RatioSeries{Metric: s.Metric, LessIsWorse: less, Points: []RatioPoint{}}
		for i := window; i < len(s.Values); i++ {
			base := median(s.Values[i-window : i])
			p := RatioPoint{Release: h.Releases[i].Name, Index: i, Value: s.Values[i], Baseline: base}
			if less {
				p.Bound = (2 - ratio) * base
				p.Violates = p.Value < p.Bound
			} else {
				p.Bound = ratio * base
				p.Violates = p.Value > p.Bound
			}
			rs.Points = append(rs.Points, p)
		}
		a.Series = append(a.Series, rs)
	}
	return a
}

// median is the median of xs (the mean of the middle two for an even
// count); xs is not changed.
func median(xs []float64) float64 {
	m, _ := stats.Percentile(slices.Sorted(slices.Values(xs)), 50, stats.Linear)
	return m
}

// Describe is one line on a violation: the release, its value, the
// baseline and the bound.
func (p RatioPoint) Describe(s RatioSeries, ratio float64) string {
	rel, factor := ">", ratio
	if s.LessIsWorse {
		rel, factor = "<", 2-ratio
	}
	return fmt.Sprintf("%s at %s: %s %s %s (%.3g × the median %s of the releases before)",
		s.Metric, p.Release, formatMetric(s.Metric, p.Value), rel, formatMetric(s.Metric, p.Bound), factor, formatMetric(s.Metric, p.Baseline))
}
