package telemetry

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"time"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
	"github.com/servebench/servebench/internal/redact"
)

// The DCGM exporter's series that a reading is made of (names as in
// dcgm-exporter's default counters; units in the comments).
const (
	DCGMGPUUtil     = "DCGM_FI_DEV_GPU_UTIL"                 // %
	DCGMFBUsed      = "DCGM_FI_DEV_FB_USED"                  // MiB
	DCGMPowerUsage  = "DCGM_FI_DEV_POWER_USAGE"              // W
	DCGMSMClock     = "DCGM_FI_DEV_SM_CLOCK"                 // MHz
	DCGMGPUTemp     = "DCGM_FI_DEV_GPU_TEMP"                 // °C
	DCGMTotalEnergy = "DCGM_FI_DEV_TOTAL_ENERGY_CONSUMPTION" // mJ, a counter
)

// dcgmScrapeTimeout bounds one scrape of the exporter.
const dcgmScrapeTimeout = 5 * time.Second

// DCGM reads a DCGM exporter's Prometheus endpoint. Each series is keyed by
// its gpu label (UUID and modelName name the GPU); where an exporter
// repeats a device series (one per MIG instance or per pod), the first one
// is used.
type DCGM struct {
	url    string
	client *http.Client
	gpus   int
	// shown is url as messages quote it, and redactor removes its
	// userinfo and query values from an error (see redact.URLSecrets).
	shown    string
	redactor *redact.Redactor
}

// OpenDCGM checks that url answers with DCGM GPU series and returns the
// source.
func OpenDCGM(ctx context.Context, url string) (*DCGM, error) {
	d := &DCGM{url: url, client: &http.Client{}, shown: redact.URL(url),
		redactor: redact.New(redact.URLSecrets(url)...)}
	rs, err := d.read(ctx)
	if err != nil {
		return nil, fmt.Errorf("dcgm: %w", err)
	}
	if len(rs) == 0 {
		return nil, fmt.Errorf("dcgm: %s has no %s, %s or %s series with a gpu label", d.shown, DCGMGPUUtil, DCGMPowerUsage, DCGMTotalEnergy)
	}
	d.gpus = len(rs)
	return d, nil
}

// GPUs is the number of GPUs the exporter listed when it was opened.
func (d *DCGM) GPUs() int { return d.gpus }

// Name is "dcgm".
func (d *DCGM) Name() string { return "dcgm" }

// Close does nothing: the source holds no connection of its own.
func (d *DCGM) Close() error { return nil }

// Stream scrapes the exporter once per interval.
func (d *DCGM) Stream(ctx context.Context, interval time.Duration, emit func(Reading), warn func(error)) error {
	return pollLoop(ctx, interval, d.read, emit, warn)
}

// read scrapes the exporter once. Its errors never quote the URL's
// userinfo or query values.
func (d *DCGM) read(ctx context.Context) ([]Reading, error) {
	rs, err := d.scrape(ctx)
	if err != nil {
		return nil, errors.New(d.redactor.Redact(err.Error()))
	}
	return rs, nil
}

// scrape is read before its error is redacted.
func (d *DCGM) scrape(ctx context.Context) ([]Reading, error) {
	ctx, cancel := context.WithTimeout(ctx, dcgmScrapeTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, d.url, nil)
	if err != nil {
		return nil, err
	}
	resp, err := d.client.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	at := time.Now()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("GET %s: HTTP %d", d.shown, resp.StatusCode)
	}
	parser := expfmt.NewTextParser(model.UTF8Validation)
	families, err := parser.TextToMetricFamilies(resp.Body)
	if err != nil {
		return nil, fmt.Errorf("parse %s: %w", d.shown, err)
	}
	return dcgmReadings(families, at)
}

// dcgmReadings builds one reading per gpu label from the parsed families.
func dcgmReadings(families map[string]*dto.MetricFamily, at time.Time) ([]Reading, error) {
	byGPU := map[int]*Reading{}
	var order []int
	for _, f := range []struct {
		name string
		set  func(*Reading, float64)
	}{
		{DCGMGPUUtil, func(r *Reading, v float64) { r.UtilizationPercent = &v }},
		{DCGMFBUsed, func(r *Reading, v float64) { r.MemoryUsedMiB = &v }},
		{DCGMPowerUsage, func(r *Reading, v float64) { r.PowerW = &v }},
		{DCGMSMClock, func(r *Reading, v float64) { r.SMClockMHz = &v }},
		{DCGMGPUTemp, func(r *Reading, v float64) { r.TemperatureC = &v }},
		{DCGMTotalEnergy, func(r *Reading, v float64) { r.EnergyMJ = &v }},
	} {
		fam := families[f.name]
		if fam == nil {
			continue
		}
		seen := map[int]bool{}
		for _, m := range fam.GetMetric() {
			labels := map[string]string{}
			for _, l := range m.GetLabel() {
				labels[l.GetName()] = l.GetValue()
			}
			g, ok := labels["gpu"]
			if !ok {
				continue
			}
			idx, err := strconv.Atoi(g)
			if err != nil {
				return nil, fmt.Errorf("%s: gpu label %q is not an index", f.name, g)
			}
			if seen[idx] {
				continue
			}
			seen[idx] = true
			r := byGPU[idx]
			if r == nil {
				r = &Reading{At: at, GPU: idx}
				byGPU[idx] = r
				order = append(order, idx)
			}
			if r.UUID == "" {
				r.UUID = labels["UUID"]
			}
			if r.Name == "" {
				r.Name = labels["modelName"]
			}
			if v, ok := metricValue(m); ok {
				f.set(r, v)
			}
		}
	}
	out := make([]Reading, 0, len(order))
	for _, i := range order {
		out = append(out, *byGPU[i])
	}
	return out, nil
}

// metricValue is a gauge's, counter's or untyped sample's finite value.
func metricValue(m *dto.Metric) (float64, bool) {
	var v float64
	switch {
	case m.Gauge != nil:
		v = m.GetGauge().GetValue()
	case m.Counter != nil:
		v = m.GetCounter().GetValue()
	case m.Untyped != nil:
		v = m.GetUntyped().GetValue()
	default:
		return 0, false
	}
	return v, finite(v)
}
