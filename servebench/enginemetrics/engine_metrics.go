package enginemetrics

import (
	"context"
	"fmt"
	"math"
	"net/http"
	"slices"
	"strings"
	"time"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"

	"github.com/servebench/servebench/internal/redact"
	"github.com/servebench/servebench/servebench/report"
)

// metricsSnapshot is one parsed scrape: series name to value, with
// histograms as count and sum.
type metricsSnapshot struct {
	counters, gauges map[string]float64
	histograms       map[string]report.HistogramDelta
}

// scrapeMetrics reads and parses a Prometheus text endpoint.
func scrapeMetrics(ctx context.Context, url string) (*metricsSnapshot, error) {
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return nil, err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("GET %s: HTTP %d", redact.URL(url), resp.StatusCode)
	}
	parser := expfmt.NewTextParser(model.UTF8Validation)
	families, err := parser.TextToMetricFamilies(resp.Body)
	if err != nil {
		return nil, fmt.Errorf("parse %s: %w", redact.URL(url), err)
	}
	s := &metricsSnapshot{counters: map[string]float64{}, gauges: map[string]float64{}, histograms: map[string]report.HistogramDelta{}}
	for name, fam := range families {
		for _, m := range fam.GetMetric() {
			key := seriesName(name, m.GetLabel())
			switch fam.GetType() {
			case dto.MetricType_COUNTER:
				putFinite(s.counters, key, m.GetCounter().GetValue())
			case dto.MetricType_GAUGE:
				putFinite(s.gauges, key, m.GetGauge().GetValue())
			case dto.MetricType_HISTOGRAM:
				h := m.GetHistogram()
				s.histograms[key] = report.HistogramDelta{Count: float64(h.GetSampleCount()), Sum: h.GetSampleSum()}
			}
		}
	}
	return s, nil
}

// putFinite stores v unless it is NaN or infinite (reports stay JSON-safe).
func putFinite(m map[string]float64, key string, v float64) {
	if !math.IsNaN(v) && !math.IsInf(v, 0) {
		m[key] = v
	}
}

// seriesName renders name{a="x",b="y"} with labels sorted.
func seriesName(name string, labels []*dto.LabelPair) string {
	if len(labels) == 0 {
		return name
	}
	parts := make([]string, 0, len(labels))
	for _, l := range labels {
		parts = append(parts, fmt.Sprintf("%s=%q", l.GetName(), l.GetValue()))
	}
	slices.Sort(parts)
	return name + "{" + strings.Join(parts, ",") + "}"
}

// engineMetricsBetween turns two scrapes into the measurement's view. A
// counter that went down (an engine restart) is reported as an error, not
// as a negative increase.
func engineMetricsBetween(url string, before, after *metricsSnapshot) *report.EngineMetrics {
	em := &report.EngineMetrics{URL: url, Counters: map[string]float64{}, Histograms: map[string]report.HistogramDelta{}, Gauges: after.gauges}
	for k, v := range after.counters {
		d := v - before.counters[k]
		if d < 0 {
			em.Errors = append(em.Errors, fmt.Sprintf("%s went down from %g to %g: the engine restarted during the run", k, before.counters[k], v))
			continue
		}
		em.Counters[k] = d
	}
	for k, h := range after.histograms {
		b := before.histograms[k]
		d := report.HistogramDelta{Count: h.Count - b.Count, Sum: h.Sum - b.Sum}
		if d.Count < 0 {
			em.Errors = append(em.Errors, fmt.Sprintf("%s count went down: the engine restarted during the run", k))
			continue
		}
		if d.Count > 0 {
			d.Mean = new(d.Sum / d.Count)
		}
		em.Histograms[k] = d
	}
	slices.Sort(em.Errors)
	return em
}

// Scrape is one scrape of the engine's metrics, or why it failed.
type Scrape struct {
	snap *metricsSnapshot
	err  error
}

// Between compares two scrapes of url, or says why one failed.
func Between(url string, before, after Scrape) *report.EngineMetrics {
	if before.err != nil || after.err != nil {
		em := &report.EngineMetrics{URL: redact.URL(url)}
		for _, err := range []error{before.err, after.err} {
			if err != nil {
				em.Errors = append(em.Errors, redact.URLSecretsIn(err.Error(), url))
			}
		}
		return em
	}
	return engineMetricsBetween(redact.URL(url), before.snap, after.snap)
}

// ScrapeOnce reads url's metrics once, keeping the error beside the result.
func ScrapeOnce(ctx context.Context, url string) Scrape {
	snap, err := scrapeMetrics(ctx, url)
	return Scrape{snap, err}
}
