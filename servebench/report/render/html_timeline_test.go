package render_test

import (
	"strings"
	"testing"

	"github.com/servebench/servebench/servebench/report"
)

// engineSeries is six scrapes of a vLLM engine one second apart, the
// third of which failed: queue 0, 2, –, 4, 3, 1; running 4, 6, –, 8, 8, 5;
// KV-cache usage 10, 30, –, 50, 60, 40 %; preemptions 0, 0, –, 1, 2, 2.
// Three other gauges were seen, one only late.
func engineSeries() *report.EngineSeries {
	s := func(at, q, r, kv, p float64) report.EngineSample {
		return report.EngineSample{AtMS: at, QueueLength: htmlFloat(q), Running: htmlFloat(r), KVCacheUsage: htmlFloat(kv), Preemptions: htmlFloat(p),
			Other: map[string]float64{"vllm:bar": 1, "vllm:foo": 2}}
	}
	samples := []report.EngineSample{
		s(0, 0, 4, 0.1, 0), s(1000, 2, 6, 0.3, 0),
		{AtMS: 2000, Error: `scrape http://engine:8000/metrics: connection refused <b>`},
		s(3000, 4, 8, 0.5, 1), s(4000, 3, 8, 0.6, 2), s(5000, 1, 5, 0.4, 2),
	}
	samples[5].Other["vllm:baz"] = 3
	return &report.EngineSeries{URL: "http://engine:8000/metrics", IntervalMS: 1000, Engine: "vllm", Samples: samples, FailedScrapes: 1}
}

// driftReport is six intervals of one second, judged: 10 offered in each,
// p99 TTFT missing in the fourth; the TTFT trend grew, the TPOT trend did
// not significantly.
func driftReport() *report.DriftReport {
	d := &report.DriftReport{IntervalMS: 1000, Judged: true, Confidence: 0.95, Trends: []report.DriftTrend{
		{Metric: "ttft_p99_ms", Finding: "ttft_p99_ms changed +32.0% over 5 s (95% interval +21.4% to +44.1%), from 100 ms",
			Growth: htmlFloat(0.32), GrowthLow: htmlFloat(0.214), GrowthHigh: htmlFloat(0.441)},
		{Metric: "tpot_p99_ms", Finding: "tpot_p99_ms changed +1.0% over 5 s (95% interval -3.0% to +5.0%), from 20 ms",
			Growth: htmlFloat(0.01), GrowthLow: htmlFloat(-0.03), GrowthHigh: htmlFloat(0.05)},
	}}
	for j := range 6 {
		iv := report.DriftInterval{StartMS: float64(1000 * j), Offered: 10, Completed: 9 + j%2, Outstanding: 1 + j,
			TTFTP99MS: htmlFloat(100 + 10*float64(j)), TPOTP99MS: htmlFloat(20)}
		if j == 3 {
			iv.TTFTP99MS = nil
		}
		d.Intervals = append(d.Intervals, iv)
	}
	return d
}

// timelineSection returns the page's Timeline section, or "" when it has
// none.
func timelineSection(page string) string {
	i := strings.Index(page, `<section id="timeline">`)
	if i < 0 {
		return ""
	}
	j := strings.Index(page[i:], "</section>")
	return page[i : i+j]
}

func TestHTMLDrawsTheEngineAndClientTimeline(t *testing.T) {
	r := smallHTMLReport(t)
	r.EngineSeries, r.Drift = engineSeries(), driftReport()
	page := renderHTML(t, r)
	sec := timelineSection(page)
	if sec == "" {
		t.Fatal("no Timeline section")
	}
	for _, want := range []string{
		"<h2>Timeline: the engine and the client over the measurement</h2>",
		"The engine&#39;s own state, vllm metrics scraped from http://engine:8000/metrics every 1000 ms: 6 samples, 1 failed.",
		`<p class="bad">First failed scrape at 2 s: scrape http://engine:8000/metrics: connection refused &lt;b&gt;</p>`,
		"Failed scrapes: 1, ticked in red on the time axis; a line breaks at each, never drawn through it",
		">failed scrape (1)</text>",
		`Other engine gauges, kept in report.json and not drawn: <span class="mono">vllm:bar</span>, <span class="mono">vllm:baz</span>, <span class="mono">vllm:foo</span>.`,
		"The client&#39;s figures in 6 intervals of 1000 ms (the drift analysis).",
		// html/template writes "+" as "&#43;".
		`<span class="bad">Drift: ttft_p99_ms changed &#43;32.0% over 5 s (95% interval &#43;21.4% to &#43;44.1%), from 100 ms</span>`,
		`<span>Drift: tpot_p99_ms changed &#43;1.0% over 5 s (95% interval -3.0% to &#43;5.0%), from 20 ms</span>`,
		">outstanding</text>",
	} {
		if !strings.Contains(sec, want) {
			t.Errorf("Timeline lacks %q", want)
		}
	}
	if strings.Contains(sec, "<b>") {
		t.Fatal("a scrape error was not escaped")
	}
	// Each chart: its title, the points drawn over its lines, and the
	// unbroken runs they form. The failed scrape splits every engine line
	// in two; the missing p99 TTFT splits that line.
	for _, c := range []struct {
		title        string
		points, runs string
	}{
		{"Engine: queue length and running requests", "10", "4"},
		{"Engine: KV-cache usage (%)", "5", "2"},
		{"Engine: preemptions since the first sample (cumulative)", "5", "2"},
		{"Client: requests per interval", "18", "3"},
		{"Client: p99 TTFT per interval (ms)", "5", "2"},
		{"Client: p99 TPOT per interval (ms)", "6", "1"},
	} {
		label := `aria-label="` + c.title + ` over time"`
		if got := attr(t, sec, label, "data-drawn-points"); got != c.points {
			t.Errorf("%s: %s points drawn, want %s", c.title, got, c.points)
		}
		if got := attr(t, sec, label, "data-runs"); got != c.runs {
			t.Errorf("%s: %s runs, want %s", c.title, got, c.runs)
		}
	}
	// One time axis, labelled in every chart; the y axes by unit.
	if n := strings.Count(sec, ">seconds since the measurement started</text>"); n != 6 {
		t.Errorf("%d x axes labelled, want 6", n)
	}
	for _, y := range []string{">requests</text>", ">%</text>", ">preemptions</text>", ">ms</text>"} {
		if !strings.Contains(sec, y) {
			t.Errorf("no y axis %s", y)
		}
	}
	if n := checkPageSVGs(t, sec); n != 6 {
		t.Errorf("%d Timeline charts, want 6", n)
	}
}

// An engine that exposes only a queue and a running count (TGI) gets only
// that chart, and the caption names what it did not expose; a run whose
// drift was not judged says why instead of a finding.
func TestHTMLTimelineDrawsOnlyWhatTheEngineExposed(t *testing.T) {
	r := smallHTMLReport(t)
	es := engineSeries()
	es.Engine = "tgi"
	for i := range es.Samples {
		es.Samples[i].KVCacheUsage, es.Samples[i].Preemptions, es.Samples[i].Other = nil, nil, nil
	}
	r.EngineSeries = es
	// smallHTMLReport's one drift interval, and a second one after it, so
	// that the client's part is drawn.
	next := r.Drift.Intervals[0]
	next.StartMS += r.Drift.IntervalMS
	r.Drift.Intervals = append(r.Drift.Intervals, next)
	sec := timelineSection(renderHTML(t, r))
	if !strings.Contains(sec, "Not exposed by the engine, so not drawn: KV-cache usage, preemptions.") {
		t.Error("the caption does not name the missing quantities")
	}
	if strings.Contains(sec, "Engine: KV-cache usage") || strings.Contains(sec, "Engine: preemptions") || strings.Contains(sec, "Other engine gauges") {
		t.Error("a quantity the engine did not expose is drawn or listed")
	}
	if !strings.Contains(sec, `aria-label="Engine: queue length and running requests over time"`) {
		t.Error("no queue chart")
	}
	// The drift: two intervals of 5 s, not judged.
	if !strings.Contains(sec, "Drift not judged: fewer than 6 intervals of 5000 ms had at least 10 successful requests.") {
		t.Error("the unjudged drift does not say why")
	}
	if !strings.Contains(sec, "no interval had the 10 successful requests a p99 needs") {
		t.Error("an empty p99 chart does not say why")
	}
	if strings.Contains(sec, "Drift: ") {
		t.Error("an unjudged drift shows a finding")
	}
}

func TestHTMLHasNoTimelineWithoutSeries(t *testing.T) {
	r := smallHTMLReport(t)
	r.EngineSeries, r.Drift = nil, nil
	page := renderHTML(t, r)
	if strings.Contains(page, `id="timeline"`) || strings.Contains(page, "Timeline: the engine") {
		t.Fatal("a report without series shows a Timeline")
	}
	r.Drift = &report.DriftReport{IntervalMS: 1000}
	if strings.Contains(renderHTML(t, r), `id="timeline"`) {
		t.Fatal("a drift report without intervals shows a Timeline")
	}
}

// timelinePageBound is the most bytes a page may take with the longest
// series kept: 2,048 engine samples (four lines) and 2,048 drift
// intervals (five lines). Each drawn point is one path command of about
// 12 bytes ("L123.4,56.7"), so nine lines of 2,048 points are about
// 220 KB; the bound leaves room for the rest of the page and the axes.
const timelinePageBound = 1 << 20

func TestHTMLTimelineStaysBoundedAt2048Samples(t *testing.T) {
	r := smallHTMLReport(t)
	const n = 2048
	es := &report.EngineSeries{URL: "http://engine:8000/metrics", IntervalMS: 1000, Engine: "vllm"}
	d := &report.DriftReport{IntervalMS: 1000}
	other := map[string]float64{}
	for k := range 64 {
		other["vllm:gauge_"+strings.Repeat("x", k)] = float64(k)
	}
	for i := range n {
		f := float64(i)
		es.Samples = append(es.Samples, report.EngineSample{AtMS: 1000 * f, QueueLength: htmlFloat(float64(i % 37)), Running: htmlFloat(float64(i % 53)),
			KVCacheUsage: htmlFloat(float64(i%100) / 100), Preemptions: htmlFloat(float64(i / 10)), Other: other})
		d.Intervals = append(d.Intervals, report.DriftInterval{StartMS: 1000 * f, Offered: 100 + i%7, Completed: 100 + i%5, Outstanding: i % 11,
			TTFTP99MS: htmlFloat(100 + float64(i%97)), TPOTP99MS: htmlFloat(20 + float64(i%13))})
	}
	r.EngineSeries, r.Drift = es, d
	page := renderHTML(t, r)
	sec := timelineSection(page)
	t.Logf("page %d bytes, Timeline %d bytes", len(page), len(sec))
	if len(page) > timelinePageBound {
		t.Fatalf("page is %d bytes, over %d", len(page), timelinePageBound)
	}
	for title, want := range map[string]string{
		"Engine: queue length and running requests": "4096",
		"Engine: KV-cache usage (%)":                "2048",
		"Client: requests per interval":             "6144",
		"Client: p99 TPOT per interval (ms)":        "2048",
	} {
		if got := attr(t, sec, `aria-label="`+title+` over time"`, "data-drawn-points"); got != want {
			t.Errorf("%s: %s points drawn, want %s", title, got, want)
		}
	}
}
