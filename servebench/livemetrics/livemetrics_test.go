package livemetrics_test

import (
	"context"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"

	"github.com/servebench/servebench/fixtures/simengine"
	"github.com/servebench/servebench/servebench"
	"github.com/servebench/servebench/servebench/livemetrics"
	"github.com/servebench/servebench/servebench/openai"
	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/servebench/report"
	"github.com/servebench/servebench/servebench/schedule"
)

// scrape reads the served series in the Prometheus text format.
func scrape(t *testing.T, url string) map[string]*dto.MetricFamily {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	p := expfmt.NewTextParser(model.UTF8Validation)
	fams, err := p.TextToMetricFamilies(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return fams
}

// value sums a family's samples whose labels include want (counters and
// gauges), or their histogram counts.
func value(fams map[string]*dto.MetricFamily, name string, want map[string]string) float64 {
	var v float64
	f, ok := fams[name]
	if !ok {
		return -1
	}
	for _, m := range f.GetMetric() {
		labels := map[string]string{}
		for _, l := range m.GetLabel() {
			labels[l.GetName()] = l.GetValue()
		}
		match := true
		for k, w := range want {
			match = match && labels[k] == w
		}
		if !match {
			continue
		}
		switch {
		case m.Counter != nil:
			v += m.GetCounter().GetValue()
		case m.Gauge != nil:
			v += m.GetGauge().GetValue()
		case m.Histogram != nil:
			v += float64(m.GetHistogram().GetSampleCount())
		}
	}
	return v
}

func TestServedSeriesFollowARealRun(t *testing.T) {
	cfg := simengine.DefaultConfig()
	cfg.TimeScale = 0.1
	engine, err := simengine.Start(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer engine.Close()
	w, err := schedule.ParseWorkload("two.jsonl", []byte(
		`{"id":"a","class":"chat","prompt":"Is the pager storm over?","max_tokens":8,"ignore_eos":true}
{"id":"b","class":"batch","prompt":"Summarize the incident.","max_tokens":8,"ignore_eos":true}`))
	if err != nil {
		t.Fatal(err)
	}
	arrival, err := schedule.NewArrival(schedule.ArrivalSpec{Process: "constant", RateRPS: 20, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	m := livemetrics.New()
	srv, err := livemetrics.Serve("127.0.0.1:0", m)
	if err != nil {
		t.Fatal(err)
	}
	live, err := servebench.Start(context.Background(), servebench.RunConfig{
		Workload: w, Arrival: arrival, Count: 40, OutputDir: t.TempDir(), Observer: m,
		Client: &openai.Client{BaseURL: engine.BaseURL(), Model: cfg.Model, Endpoint: record.EndpointCompletions,
			TotalTimeout: 10 * time.Second},
	})
	if err != nil {
		t.Fatal(err)
	}
	// While the run runs (40 requests at 20/s: two seconds), a scrape sees
	// the load point and offered requests. Bounded: at most 200 scrapes.
	sawRunning := false
	for i := 0; i < 200 && !live.Finished() && !sawRunning; i++ {
		fams := scrape(t, srv.URL())
		sawRunning = value(fams, "servebench_load_point_running", nil) == 1 &&
			value(fams, "servebench_requests_offered_total", nil) > 0 &&
			value(fams, "servebench_load_point_offered_rate_rps", nil) == 20
		time.Sleep(10 * time.Millisecond)
	}
	res, err := live.Wait()
	if err != nil {
		t.Fatal(err)
	}
	if !sawRunning {
		t.Error("no scrape during the run saw it running with requests offered at 20 req/s")
	}
	fams := scrape(t, srv.URL())
	if err := srv.Close(); err != nil {
		t.Fatal(err)
	}
	// 40 requests alternate between the two rows: 20 per class, all
	// successful with 8 tokens in 8 events, so TPOT is defined for each.
	for _, class := range []string{"chat", "batch"} {
		for name, want := range map[string]float64{
			"servebench_requests_offered_total":   20,
			"servebench_requests_sent_total":      20,
			"servebench_requests_completed_total": 20,
			"servebench_ttft_seconds":             20,
			"servebench_tpot_seconds":             20,
			"servebench_e2e_seconds":              20,
		} {
			if got := value(fams, name, map[string]string{"class": class}); got != want {
				t.Errorf("%s{class=%q} = %v, want %v", name, class, got, want)
			}
		}
	}
	for name, want := range map[string]float64{
		"servebench_requests_failed_total":     0,
		"servebench_requests_outstanding":      0,
		"servebench_requests_scheduled":        40,
		"servebench_schedule_lag_seconds":      40,
		"servebench_load_point_running":        0,
		"servebench_load_points_started_total": 1,
	} {
		if got := value(fams, name, nil); got != want && !(want == 0 && got == -1) {
			t.Errorf("%s = %v, want %v", name, got, want)
		}
	}
	if res.Report.Offered != 40 || res.Report.ProtocolSuccesses != 40 {
		t.Errorf("report: offered %d, successes %d", res.Report.Offered, res.Report.ProtocolSuccesses)
	}
	// The sums are the report's own figures: the E2E histogram's sum is
	// the sum of the requests' e - d.
	var sumE2E float64
	if err := res.Report.EachRequest(func(r *report.RequestScore) error { sumE2E += *r.E2EMS / 1000; return nil }); err != nil {
		t.Fatal(err)
	}
	var got float64
	for _, mm := range fams["servebench_e2e_seconds"].GetMetric() {
		got += mm.GetHistogram().GetSampleSum()
	}
	if d := got - sumE2E; d > 1e-6 || d < -1e-6 {
		t.Errorf("e2e sum %v s, want the report's %v s", got, sumE2E)
	}
	// The server stopped with Close.
	if resp, err := http.Get(srv.URL()); err == nil {
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		t.Error("the server still answers after Close")
	}
}

func TestClassLabelsAreBounded(t *testing.T) {
	m := livemetrics.New()
	m.Started(100)
	for i := range livemetrics.MaxClasses + 5 {
		m.Due("class-" + strings.Repeat("x", i))
	}
	fams, err := m.Gather()
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]*dto.MetricFamily{}
	for _, f := range fams {
		byName[f.GetName()] = f
	}
	offered := byName["servebench_requests_offered_total"]
	if n := len(offered.GetMetric()); n != livemetrics.MaxClasses+1 {
		t.Errorf("%d label sets, want %d classes and %q", n, livemetrics.MaxClasses, livemetrics.OtherClass)
	}
	if got := value(byName, "servebench_requests_offered_total", map[string]string{"class": livemetrics.OtherClass}); got != 5 {
		t.Errorf("other = %v, want the 5 classes past the bound", got)
	}
	if got := value(byName, "servebench_requests_outstanding", nil); got != float64(livemetrics.MaxClasses+5) {
		t.Errorf("outstanding = %v", got)
	}
}

func TestLoopbackAddr(t *testing.T) {
	for in, want := range map[string]string{
		":9464": "127.0.0.1:9464", "9464": "127.0.0.1:9464", "0.0.0.0:9464": "0.0.0.0:9464", "[::1]:1": "[::1]:1",
	} {
		if got, err := livemetrics.LoopbackAddr(in); err != nil || got != want {
			t.Errorf("LoopbackAddr(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	if _, err := livemetrics.LoopbackAddr("a:b:c"); err == nil {
		t.Error("a:b:c: no error")
	}
}
