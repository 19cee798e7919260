package livemetrics

import (
	"slices"
	"sync"

	"github.com/prometheus/client_golang/prometheus"
	dto "github.com/prometheus/client_model/go"

	"github.com/servebench/servebench/servebench"
	"github.com/servebench/servebench/servebench/internal/scorer"
	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/servebench/schedule"
	// score installs scorer.Measure.
	_ "github.com/servebench/servebench/servebench/score"
)

// MaxClasses bounds the class label: the first MaxClasses distinct classes
// keep their names, later ones are counted under OtherClass.
const MaxClasses = 32

// OtherClass is the class label of the classes past MaxClasses.
const OtherClass = "other"

// latencyBuckets are the histograms' upper bounds in seconds, 1 ms to
// about 65 s.
var latencyBuckets = prometheus.ExponentialBuckets(0.001, 2, 17)

// Metrics holds the live series of the runs it observes; the zero value is
// not usable, call New. It is safe for concurrent use.
type Metrics struct {
	reg *prometheus.Registry

	offered, sent, completed *prometheus.CounterVec
	failed                   *prometheus.CounterVec
	outstanding              prometheus.Gauge
	scheduled                prometheus.Gauge
	lag                      prometheus.Histogram
	ttft, tpot, e2e          *prometheus.HistogramVec
	pointRate, pointUsers    prometheus.Gauge
	points                   *prometheus.CounterVec
	running                  prometheus.Gauge

	mu      sync.Mutex
	classes map[string]bool
	// adapters says the per-request series carry the adapter label.
	adapters bool
}

var _ servebench.AdapterDueObserver = (*Metrics)(nil)

// New returns Metrics with every series registered in a registry of its
// own (see Registry). The per-request series are labelled by class (and
// status); NewWithAdapters adds the adapter.
func New() *Metrics { return newMetrics(false) }

// NewWithAdapters is New for runs with a LoRA adapter mix: every series
// that New labels by class is also labelled by adapter, the request's
// adapter ("base" for the base model, "" for a request without one). The
// adapters are the mix's, so the label stays bounded.
func NewWithAdapters() *Metrics { return newMetrics(true) }

func newMetrics(adapters bool) *Metrics {
	m := &Metrics{reg: prometheus.NewRegistry(), classes: map[string]bool{}, adapters: adapters}
	perRequest := []string{"class"}
	if adapters {
		perRequest = append(perRequest, "adapter")
	}
	counter := func(name, help string, labels ...string) *prometheus.CounterVec {
		return prometheus.NewCounterVec(prometheus.CounterOpts{Name: name, Help: help}, labels)
	}
	gauge := func(name, help string) prometheus.Gauge {
		return prometheus.NewGauge(prometheus.GaugeOpts{Name: name, Help: help})
	}
	hist := func(name, help string) *prometheus.HistogramVec {
		return prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: name, Help: help, Buckets: latencyBuckets}, perRequest)
	}
	m.offered = counter("servebench_requests_offered_total", "Requests whose scheduled time has come, by class.", perRequest...)
	m.sent = counter("servebench_requests_sent_total", "Requests handed to the connection, by class, counted as they end.", perRequest...)
	m.completed = counter("servebench_requests_completed_total", "Requests that ended in success, by class.", perRequest...)
	m.failed = counter("servebench_requests_failed_total", "Requests that ended in any other terminal status (not_sent included), by class and status.",
		append(slices.Clone(perRequest), "status")...)
	m.outstanding = gauge("servebench_requests_outstanding", "Requests come due and not yet ended (waiting for a slot or in flight).")
	m.scheduled = gauge("servebench_requests_scheduled", "Requests the current load point's schedule holds.")
	m.lag = prometheus.NewHistogram(prometheus.HistogramOpts{
		Name: "servebench_schedule_lag_seconds", Help: "Sent minus scheduled time of every sent request.", Buckets: latencyBuckets,
	})
	m.ttft = hist("servebench_ttft_seconds", "Time to first content (f - d) of successful requests, by class.")
	m.tpot = hist("servebench_tpot_seconds", "Time per output token ((l - f)/(n - 1)) of successful requests where defined, by class.")
	m.e2e = hist("servebench_e2e_seconds", "End-to-end latency (e - d) of successful requests, by class.")
	m.pointRate = gauge("servebench_load_point_offered_rate_rps", "Offered rate of the current load point (0 for a closed loop).")
	m.pointUsers = gauge("servebench_load_point_users", "Closed-loop users of the current load point (0 for an open loop).")
	m.points = counter("servebench_load_points_started_total", "Load points started, by arrival process.", "process")
	m.running = gauge("servebench_load_point_running", "1 while a load point dispatches, 0 between points.")
	m.reg.MustRegister(m.offered, m.sent, m.completed, m.failed, m.outstanding, m.scheduled, m.lag,
		m.ttft, m.tpot, m.e2e, m.pointRate, m.pointUsers, m.points, m.running)
	return m
}

// Registry is the registry that holds the series, to serve or gather
// them, or to register more.
func (m *Metrics) Registry() *prometheus.Registry { return m.reg }

// Gather returns the current series, as a scrape would see them.
func (m *Metrics) Gather() ([]*dto.MetricFamily, error) { return m.reg.Gather() }

// class bounds a class label.
func (m *Metrics) class(c string) string {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.classes[c] {
		return c
	}
	if len(m.classes) >= MaxClasses {
		return OtherClass
	}
	m.classes[c] = true
	return c
}

// LoadPoint records the load point a run offers.
func (m *Metrics) LoadPoint(a schedule.ArrivalSpec) {
	m.pointRate.Set(a.RateRPS)
	m.pointUsers.Set(float64(a.Users))
	m.points.WithLabelValues(string(a.Process)).Inc()
}

// Started records the size of the load point's schedule.
func (m *Metrics) Started(scheduled int) {
	m.scheduled.Set(float64(scheduled))
	m.running.Set(1)
}

// labels are the per-request label values of a request of class and
// adapter, then extra.
func (m *Metrics) labels(class, adapter string, extra ...string) []string {
	v := []string{m.class(class)}
	if m.adapters {
		v = append(v, adapter)
	}
	return append(v, extra...)
}

// Due counts a request whose time has come.
func (m *Metrics) Due(class string) { m.DueAdapter(class, "") }

// DueAdapter counts a request of a run with an adapter mix whose time has
// come; without the adapter label (New) it is Due.
func (m *Metrics) DueAdapter(class, adapter string) {
	m.offered.WithLabelValues(m.labels(class, adapter)...).Inc()
	m.outstanding.Inc()
}

// Ended counts a terminal record and observes its latencies in seconds
// (those of successful requests only, as the report's populations).
func (m *Metrics) Ended(o *record.Outcome) {
	class := m.labels(o.Class, o.Adapter)
	m.outstanding.Dec()
	om, err := scorer.Measure(o)
	if err != nil {
		// A record the scorer will refuse: count it, observe nothing.
		m.failed.WithLabelValues(append(class, string(o.Status))...).Inc()
		return
	}
	if o.SentMS != nil {
		m.sent.WithLabelValues(class...).Inc()
		m.lag.Observe(*om.ScheduleLagMS / 1000)
	}
	if o.Status != record.StatusSuccess {
		m.failed.WithLabelValues(append(class, string(o.Status))...).Inc()
		return
	}
	m.completed.WithLabelValues(class...).Inc()
	for _, x := range []struct {
		h  *prometheus.HistogramVec
		ms *float64
	}{{m.ttft, om.TTFTMS}, {m.tpot, om.TPOTMS}, {m.e2e, om.E2EMS}} {
		if x.ms != nil {
			x.h.WithLabelValues(class...).Observe(*x.ms / 1000)
		}
	}
}

// Finished marks the load point ended.
func (m *Metrics) Finished() { m.running.Set(0) }
