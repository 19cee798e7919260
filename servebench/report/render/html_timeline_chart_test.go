package render

import (
	"fmt"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/servebench/servebench/servebench/report"
)

// A failed scrape breaks every engine line: the queue's points skip the
// failed sample at 2 s (never drawn as 0) and form two runs, and the SVG
// draws them as one path of two subpaths, with the failure ticked at 2 s.
func TestTimelineBreaksEngineLinesAtAFailedScrape(t *testing.T) {
	f := func(v float64) *float64 { return &v }
	es := &report.EngineSeries{URL: "http://engine/metrics", IntervalMS: 1000, Engine: "vllm", FailedScrapes: 1, Samples: []report.EngineSample{
		{AtMS: 0, QueueLength: f(0), Running: f(4)},
		{AtMS: 1000, QueueLength: f(2), Running: f(6)},
		{AtMS: 2000, QueueLength: f(0), Error: "connection refused"}, // a value beside an error is not drawn
		{AtMS: 3000, QueueLength: f(4), Running: f(8)},
		{AtMS: 4000, QueueLength: f(3)},
	}}
	tl := htmlTimelineOf(&report.Report{EngineSeries: es})
	if tl == nil || tl.Engine == nil || tl.Client != nil {
		t.Fatalf("timeline %+v", tl)
	}
	if len(tl.Engine.Charts) != 1 {
		t.Fatalf("%d engine charts, want 1 (no KV-cache usage or preemptions exposed)", len(tl.Engine.Charts))
	}
	c := tl.Engine.Charts[0]
	queue, running := c.Series[0], c.Series[1]
	if want := [][2]float64{{0, 0}, {1000, 2}, {3000, 4}, {4000, 3}}; !reflect.DeepEqual(queue.Points, want) || queue.Runs != 2 {
		t.Fatalf("queue points %v in %d runs, want %v in 2", queue.Points, queue.Runs, want)
	}
	// Running is missing at 2 s (failed) and at 4 s (not reported): its
	// last run is the lone point at 3 s.
	if want := [][2]float64{{0, 4}, {1000, 6}, {3000, 8}}; !reflect.DeepEqual(running.Points, want) || running.Runs != 2 {
		t.Fatalf("running points %v in %d runs, want %v in 2", running.Points, running.Runs, want)
	}
	if c.N != 7 || c.Runs != 4 {
		t.Fatalf("chart N %d runs %d", c.N, c.Runs)
	}
	// The queue's path (blue) and running's (vermillion): two subpaths
	// each; running's second is the lone point's dash.
	for color, moves := range map[string]int{"#0072B2": 2, "#D55E00": 2} {
		if d := longestPath(string(c.SVG), color); strings.Count(d, "M") != moves {
			t.Errorf("%s path %q: want %d subpaths", color, d, moves)
		}
	}
	if d := longestPath(string(c.SVG), "#B3261E"); strings.Count(d, "M") != 1 {
		t.Errorf("failed-scrape ticks %q: want one", d)
	}
	if !strings.Contains(c.Caption, "Failed scrapes: 1,") || !strings.Contains(string(c.SVG), ">failed scrape (1)</text>") {
		t.Errorf("caption %q or legend does not count the failed scrape", c.Caption)
	}
	if !strings.HasPrefix(tl.Engine.Failure, "First failed scrape at 2 s: connection refused") {
		t.Errorf("failure %q", tl.Engine.Failure)
	}
}

// longestPath returns the d attribute of the longest path stroked in the
// colour.
func longestPath(svg, color string) string {
	best := ""
	for _, m := range regexp.MustCompile(`<path d="([^"]*)" style="[^"]*stroke:`+color+`;`).FindAllStringSubmatch(svg, -1) {
		if len(m[1]) > len(best) {
			best = m[1]
		}
	}
	return best
}

// The client's counts sit at each interval's midpoint, outstanding at its
// end, and every chart shares the time axis of the engine's samples and
// the intervals.
func TestTimelineClientPointsAndSharedAxis(t *testing.T) {
	f := func(v float64) *float64 { return &v }
	d := &report.DriftReport{IntervalMS: 2000, Intervals: []report.DriftInterval{
		{StartMS: 0, Offered: 4, Completed: 3, Outstanding: 1, TTFTP99MS: f(120)},
		{StartMS: 2000, Offered: 5, Completed: 6, Outstanding: 0, TPOTP99MS: f(15)},
	}}
	es := &report.EngineSeries{Samples: []report.EngineSample{{AtMS: 500, KVCacheUsage: f(0.25)}, {AtMS: 5000, KVCacheUsage: f(0.5)}}}
	tl := htmlTimelineOf(&report.Report{Drift: d, EngineSeries: es})
	req := tl.Client.Charts[0]
	want := map[string][][2]float64{
		"offered":     {{1000, 4}, {3000, 5}},
		"completed":   {{1000, 3}, {3000, 6}},
		"outstanding": {{2000, 1}, {4000, 0}},
	}
	for _, s := range req.Series {
		if !reflect.DeepEqual(s.Points, want[s.Name]) {
			t.Errorf("%s: %v, want %v", s.Name, s.Points, want[s.Name])
		}
	}
	if ttft := tl.Client.Charts[1].Series[0]; !reflect.DeepEqual(ttft.Points, [][2]float64{{1000, 120}}) || ttft.Runs != 1 {
		t.Errorf("p99 TTFT %v in %d runs", ttft.Points, ttft.Runs)
	}
	// KV-cache usage in %: 25 and 50.
	if kv := tl.Engine.Charts[0].Series[0]; !reflect.DeepEqual(kv.Points, [][2]float64{{500, 25}, {5000, 50}}) {
		t.Errorf("KV-cache usage %v", kv.Points)
	}
	// The axis runs from 0 to the last sample, 5 s, past the intervals'
	// end at 4 s.
	if tl.AxisMS != [2]float64{0, 5000} {
		t.Errorf("axis %v ms, want [0, 5000]", tl.AxisMS)
	}
}

// The unknown gauges named are the first 64 in name order, whatever the
// samples held; the rest are counted.
func TestOtherGaugeNamesAreBounded(t *testing.T) {
	var samples []report.EngineSample
	for i := range 70 {
		samples = append(samples, report.EngineSample{Other: map[string]float64{fmt.Sprintf("g%02d", 69-i): 1}})
	}
	names, more := otherGaugeNames(samples)
	if len(names) != report.MaxOtherGauges || names[0] != "g00" || names[63] != "g63" || more != 6 {
		t.Fatalf("%d names %q … %q, %d more", len(names), names[0], names[len(names)-1], more)
	}
}

// When every scrape failed, nothing is drawn and the caption says so
// rather than blame the engine's metric names.
func TestTimelineSaysWhenNoScrapeSucceeded(t *testing.T) {
	es := &report.EngineSeries{IntervalMS: 1000, FailedScrapes: 2, Samples: []report.EngineSample{{AtMS: 0, Error: "refused"}, {AtMS: 1000, Error: "refused"}}}
	e := htmlTimelineOf(&report.Report{EngineSeries: es}).Engine
	if len(e.Charts) != 0 || !strings.HasSuffix(e.Caption, "2 samples, 2 failed. No scrape succeeded, so nothing is drawn.") {
		t.Fatalf("%d charts, caption %q", len(e.Charts), e.Caption)
	}
}
