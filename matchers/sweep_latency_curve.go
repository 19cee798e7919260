package matchers

import (
	"fmt"
	"math"
	"sort"
	"strings"
	"time"

	"github.com/onsi/gomega/format"
	"github.com/onsi/gomega/types"

	"github.com/servebench/servebench/servebench/capacity"
	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/sweepreport"
)

// HaveLatencyCurveBelow succeeds when, at every tested rate up to upToRPS
// requests per second (nominal, inclusive), every run's p-th percentile of
// metric is at most limit: "p99 TTFT stays under 500 ms up to 8 req/s". A
// run whose percentile is undefined (no successful request) fails the
// curve: an undefined latency is not a low one. Rates above upToRPS are
// shown in the message but not judged.
//
//	Expect(sweep).To(matchers.HaveLatencyCurveBelow(record.MetricTTFT, 99, 500*time.Millisecond, 8))
//
// The actual is a *capacity.Sweep (any percentile, from each report) or
// a sweepreport.Result read from sweep.json (TTFT, TPOT and E2E at p50,
// p90 and p99, the figures the file keeps). No tested rate at or below
// upToRPS is an error.
func HaveLatencyCurveBelow(metric record.Metric, p float64, limit time.Duration, upToRPS float64) types.GomegaMatcher {
	return curveMatcher{metric: metric, p: p, limit: limit, upTo: upToRPS}
}

// curveMatcher holds only its expectation; see HaveLatencyCurveBelow.
type curveMatcher struct {
	metric record.Metric
	p      float64
	limit  time.Duration
	upTo   float64
}

// curvePoint is one run's value on the curve.
type curvePoint struct {
	rate   float64
	repeat int
	value  *float64
	why    string // why value is nil
}

// curveVerdict is the matcher's judgment of one sweep.
type curveVerdict struct {
	points []curvePoint
	first  *curvePoint // the lowest judged run over the limit or undefined
}

func (m curveMatcher) evaluate(actual any) (curveVerdict, error) {
	const who = "HaveLatencyCurveBelow"
	if math.IsNaN(m.p) || m.p <= 0 || m.p > 100 {
		return curveVerdict{}, fmt.Errorf("%s needs a percentile in (0, 100], got %v", who, m.p)
	}
	if m.limit < 0 || math.IsNaN(m.upTo) || m.upTo <= 0 {
		return curveVerdict{}, fmt.Errorf("%s needs a non-negative limit and a positive rate, got %s and %v", who, m.limit, m.upTo)
	}
	var pts []curvePoint
	switch a := actual.(type) {
	case *capacity.Sweep:
		if a == nil {
			return curveVerdict{}, fmt.Errorf("%s expects a sweep, got a nil one", who)
		}
		pts = m.fromSweep(*a)
	case capacity.Sweep:
		pts = m.fromSweep(a)
	case sweepreport.Result:
		var err error
		if pts, err = m.fromResult(a); err != nil {
			return curveVerdict{}, err
		}
	case *sweepreport.Result:
		if a == nil {
			return curveVerdict{}, fmt.Errorf("%s expects a sweep result, got a nil one", who)
		}
		var err error
		if pts, err = m.fromResult(*a); err != nil {
			return curveVerdict{}, err
		}
	default:
		return curveVerdict{}, fmt.Errorf("%s expects a *capacity.Sweep or a sweepreport.Result.  Got:\n%s", who, format.Object(actual, 1))
	}
	sort.SliceStable(pts, func(i, j int) bool { return pts[i].rate < pts[j].rate })
	v := curveVerdict{points: pts}
	judged := 0
	limitMS := float64(m.limit) / float64(time.Millisecond)
	for i := range pts {
		if pts[i].rate > m.upTo {
			continue
		}
		judged++
		if v.first == nil && (pts[i].value == nil || *pts[i].value > limitMS) {
			v.first = &pts[i]
		}
	}
	if judged == 0 {
		return curveVerdict{}, fmt.Errorf("%s: no tested rate is at or below %g req/s, so the curve there is unknown", who, m.upTo)
	}
	return v, nil
}

func (m curveMatcher) fromSweep(s capacity.Sweep) []curvePoint {
	out := make([]curvePoint, 0, len(s.Points))
	for _, sp := range s.Points {
		cp := curvePoint{rate: sp.OfferedRPS, repeat: max(sp.Repeat, 1)}
		if sp.Report == nil {
			cp.why = "no report"
		} else if v, _, _, err := sp.Report.Percentile(m.metric, m.p); err != nil {
			cp.why = err.Error()
		} else {
			cp.value = &v
		}
		if cp.rate == 0 && sp.Report != nil && sp.Report.OfferedRPS != nil {
			cp.rate = *sp.Report.OfferedRPS
		}
		out = append(out, cp)
	}
	return out
}

func (m curveMatcher) fromResult(r sweepreport.Result) ([]curvePoint, error) {
	get, err := resultField(m.metric, m.p)
	if err != nil {
		return nil, err
	}
	out := make([]curvePoint, 0, len(r.Rates))
	for _, row := range r.Rates {
		cp := curvePoint{rate: row.RateRPS, repeat: max(row.Repeat, 1), value: get(row)}
		if cp.value == nil {
			cp.why = "undefined (no successful request)"
		}
		out = append(out, cp)
	}
	return out, nil
}

// resultField picks the sweep.json column of a metric and percentile.
func resultField(m record.Metric, p float64) (func(sweepreport.Rate) *float64, error) {
	type key struct {
		m record.Metric
		p float64
	}
	fields := map[key]func(sweepreport.Rate) *float64{
		{record.MetricTTFT, 50}: func(r sweepreport.Rate) *float64 { return r.TTFTP50MS },
		{record.MetricTTFT, 90}: func(r sweepreport.Rate) *float64 { return r.TTFTP90MS },
		{record.MetricTTFT, 99}: func(r sweepreport.Rate) *float64 { return r.TTFTP99MS },
		{record.MetricTPOT, 50}: func(r sweepreport.Rate) *float64 { return r.TPOTP50MS },
		{record.MetricTPOT, 90}: func(r sweepreport.Rate) *float64 { return r.TPOTP90MS },
		{record.MetricTPOT, 99}: func(r sweepreport.Rate) *float64 { return r.TPOTP99MS },
		{record.MetricE2E, 50}:  func(r sweepreport.Rate) *float64 { return r.E2EP50MS },
		{record.MetricE2E, 90}:  func(r sweepreport.Rate) *float64 { return r.E2EP90MS },
		{record.MetricE2E, 99}:  func(r sweepreport.Rate) *float64 { return r.E2EP99MS },
	}
	f, ok := fields[key{m, p}]
	if !ok {
		return nil, fmt.Errorf("HaveLatencyCurveBelow: sweep.json keeps p50, p90 and p99 of TTFT, TPOT and E2E, not p%g of %s; judge the *capacity.Sweep instead", p, m)
	}
	return f, nil
}

// Match reports whether every judged run stays at or under the limit.
func (m curveMatcher) Match(actual any) (bool, error) {
	v, err := m.evaluate(actual)
	return v.first == nil, err
}

// FailureMessage names the lowest rate that broke the curve and shows it.
func (m curveMatcher) FailureMessage(actual any) string {
	v, err := m.evaluate(actual)
	if err != nil {
		return err.Error()
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Expected %s to stay at or under %s up to %g req/s, but ", m.what(), m.limit, m.upTo)
	f := v.first
	if f.value == nil {
		fmt.Fprintf(&b, "at %g req/s (run %d) it is %s", f.rate, f.repeat, f.why)
	} else {
		fmt.Fprintf(&b, "at %g req/s (run %d) it is %.1f ms", f.rate, f.repeat, *f.value)
	}
	b.WriteString(m.curve(v))
	return b.String()
}

// NegatedFailureMessage shows the curve that stayed under the limit.
func (m curveMatcher) NegatedFailureMessage(actual any) string {
	v, err := m.evaluate(actual)
	if err != nil {
		return err.Error()
	}
	return fmt.Sprintf("Expected %s not to stay at or under %s up to %g req/s, but it did", m.what(), m.limit, m.upTo) + m.curve(v)
}

// String names the objective.
func (m curveMatcher) String() string {
	return fmt.Sprintf("%s <= %s up to %g req/s", m.what(), m.limit, m.upTo)
}

func (m curveMatcher) what() string {
	return fmt.Sprintf("p%g %s", m.p, metricLabel(m.metric))
}

// curve lists every run's value by rate, marking those not judged.
func (m curveMatcher) curve(v curveVerdict) string {
	var b strings.Builder
	b.WriteString("\ncurve (req/s: ms):")
	for _, p := range v.points {
		val := "undefined"
		if p.value != nil {
			val = fmt.Sprintf("%.1f", *p.value)
		}
		note := ""
		if p.rate > m.upTo {
			note = " (above the range, not judged)"
		}
		fmt.Fprintf(&b, "\n    %g (run %d): %s%s", p.rate, p.repeat, val, note)
	}
	return b.String()
}
