package render_test

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"html"
	"io"
	"math"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/servebench/report"
	"github.com/servebench/servebench/servebench/report/render"
	"github.com/servebench/servebench/servebench/schedule"
	"github.com/servebench/servebench/servebench/score"
)

// scriptID is a request ID that would run a script if it were not escaped.
const scriptID = `<script>alert(1)</script>`

// htmlFloat returns a pointer to v.
func htmlFloat(v float64) *float64 { return &v }

// htmlSuccess is a successful outcome: sent at d, content events at
// content (the first is f, the last l), n output tokens, ending at e.
func htmlSuccess(id string, a, d float64, content []float64, n int, e float64) record.Outcome {
	src := record.TokensFromUsage
	return record.Outcome{ID: id, Attempt: 1, Status: record.StatusSuccess, ScheduledMS: a, SlotMS: htmlFloat(a), SentMS: htmlFloat(d),
		FirstContentMS: htmlFloat(content[0]), LastContentMS: htmlFloat(content[len(content)-1]), TerminalMS: e,
		ContentMS: content, OutputTokens: &n, TokenCountSource: &src}
}

// smallHTMLReport scores five requests scheduled every 200 ms over
// [0, 1000) against TTFT <= 100 ms:
//
//	a   at 0:   success, f - d = 50, f - a = 50, TPOT (90-50)/4 = 10, E2E 100: qualified
//	b   at 200: success, f - d = 150 (ttft fails), TPOT 10, E2E 200
//	c   at 400: timeout (first token), ends at 900
//	<script>alert(1)</script> at 600: http_error 500, with markup in its error
//	e   at 800: success, f - d = 30, TPOT (860-830)/3 = 10, E2E 70: qualified
func smallHTMLReport(t *testing.T) *report.Report {
	t.Helper()
	s := &schedule.Schedule{Schema: schedule.Schema, Mode: schedule.ModeOpen, WindowMS: [2]float64{0, 1000}, ScheduleLagToleranceMS: 20}
	for i, id := range []string{"a", "b", "c", scriptID, "e"} {
		s.Entries = append(s.Entries, schedule.Entry{ID: id, Row: i, ScheduledMS: float64(200 * i), MaxTokens: 8})
	}
	firstToken := record.TimeoutFirstToken
	status500 := 500
	outs := []record.Outcome{
		htmlSuccess("a", 0, 0, []float64{50, 70, 90}, 5, 100),
		htmlSuccess("b", 200, 200, []float64{350, 370, 390}, 5, 400),
		{ID: "c", Attempt: 1, Status: record.StatusTimeout, ScheduledMS: 400, SlotMS: htmlFloat(400), SentMS: htmlFloat(400),
			TerminalMS: 900, Timeout: &firstToken, Error: "no content within the first-token deadline"},
		{ID: scriptID, Attempt: 1, Status: record.StatusHTTPError, ScheduledMS: 600, SlotMS: htmlFloat(600), SentMS: htmlFloat(600),
			TerminalMS: 602, HTTPStatus: &status500, Error: `upstream said <b>busy</b> & "gone"`},
		htmlSuccess("e", 800, 800, []float64{830, 845, 860}, 4, 870),
	}
	r, err := score.Outcomes(s, outs, score.Options{SLO: report.SLO{TTFT: 100 * time.Millisecond}})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// renderHTML renders a report's page.
func renderHTML(t *testing.T, r *report.Report) string {
	t.Helper()
	var buf bytes.Buffer
	if err := render.HTML(&buf, r); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}

// tagRE matches one HTML tag.
var tagRE = regexp.MustCompile(`<[^>]*>`)

// tableRow returns the text of each cell of the first table row whose
// first cell reads first, unescaped; nil when there is none.
func tableRow(page, first string) []string {
	for _, row := range strings.Split(page, "<tr") {
		row, _, _ = strings.Cut(row, "</tr>")
		cells := strings.Split(row, "</td>")
		if len(cells) < 2 {
			continue
		}
		var out []string
		for _, c := range cells[:len(cells)-1] {
			out = append(out, html.UnescapeString(tagRE.ReplaceAllString(c[strings.Index(c, ">")+1:], "")))
		}
		if out[0] == first {
			return out
		}
	}
	return nil
}

// attr returns the value of the first attr="..." in the element that
// carries marker.
func attr(t *testing.T, page, marker, name string) string {
	t.Helper()
	i := strings.Index(page, marker)
	if i < 0 {
		t.Fatalf("page lacks %q", marker)
	}
	start := strings.LastIndex(page[:i], "<")
	end := i + strings.Index(page[i:], ">")
	m := regexp.MustCompile(` ` + name + `="([^"]*)"`).FindStringSubmatch(page[start:end])
	if m == nil {
		t.Fatalf("element %s has no %s", page[start:end], name)
	}
	return html.UnescapeString(m[1])
}

func TestHTMLShowsEveryRateWithItsDenominator(t *testing.T) {
	raw := renderHTML(t, smallHTMLReport(t))
	// Self-contained: nothing is fetched and nothing runs.
	for _, external := range []string{"<script", "<link", "src=", "href=", "url(", "@import", "http://", "https://"} {
		if strings.Contains(raw, external) {
			t.Errorf("page holds %q", external)
		}
	}
	page := html.UnescapeString(raw)
	for _, want := range []string{
		// Offered 5 over a 1 s window; qualified a and e; the horizon is
		// the window, since the last terminal outcome (900) is inside it.
		"5.000 req/s = 5 / 1 s window",
		"2 of 5 offered; 2.000 req/s = 2 / 1 s horizon",
		"40.0%", "2 / 5; performance",
		// Wilson, one-sided 95% (z = 1.6449) on 2 of 5: (0.4 + 0.2706 -
		// 1.6449*sqrt(0.048 + 0.02706)) / (1 + 0.5411) = 0.1427.
		"Wilson lower bound (95%, one-sided)", "14.3%", "on 2 / 5",
		"3 of 5 offered (60.0%)",
		"3.000 req/s (3 / 1 s horizon)",
		"2.000 req/s (2 / 1 s horizon)",
		"not estimated: one run is not a capacity",
		"ttft <= 100 ms (from send)",
		// Three unqualified: b (ttft), c and the HTTP error (status).
		"3 of 5 offered are unqualified",
		"0 ms (tolerance 20 ms; 0 of 5 late)",
		"yes: every offered request was sent within 20 ms of its schedule",
	} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %q", want)
		}
	}
	for first, want := range map[string][]string{
		"success":    {"success", "3", "3 of 5 offered (60.0%)"},
		"timeout":    {"timeout", "1", "1 of 5 offered (20.0%)"},
		"http_error": {"http_error", "1", "1 of 5 offered (20.0%)"},
		"rejected":   {"rejected", "0", "0 of 5 offered (0.0%)"},
		"status":     {"status", "2", "2 of 3 unqualified (66.7%)", ""},
		"ttft":       {"ttft", "1", "1 of 3 unqualified (33.3%)", "1 above the objective, 0 not measurable"},
		// TTFT over a, b, e: 50, 150, 30; mean 76.667; nearest rank
		// p50 = 2nd of 3 = 50, p90 = p95 = p99 = 3rd = 150.
		"ttft_ms": {"ttft_ms", "successful requests (3 of 5 offered): first content − sent", "3", "76.667", "50", "150", "150", "150", "150"},
		// E2E 100, 200, 70.
		"e2e_ms": {"e2e_ms", "successful requests (3 of 5 offered): terminal − sent", "3", "123.333", "100", "200", "200", "200", "200"},
	} {
		if got := tableRow(page, first); fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("row %s:\n got %q\nwant %q", first, got, want)
		}
	}
}

func TestHTMLPrintsUndefinedValuesAsNotAvailable(t *testing.T) {
	page := renderHTML(t, smallHTMLReport(t))
	// No event proved one token each, so the token ITL sample is empty.
	itl := tableRow(page, "itl_ms")
	if len(itl) != 9 || itl[2] != "0" || strings.Join(itl[3:], " ") != "n/a n/a n/a n/a n/a n/a" {
		t.Fatalf("itl_ms row %q", itl)
	}
	// The timeout has no first content: its TTFT, TPOT and token count
	// are undefined.
	if c := tableRow(page, "c"); strings.Join(c[6:11], " ") != "n/a n/a n/a 500 n/a" {
		t.Fatalf("row c %q", c)
	}

	// A report with no requests, and one whose figures are not finite.
	empty := renderHTML(t, &report.Report{Schema: report.ReportSchema, WilsonConfidence: 0.95})
	for _, want := range []string{"SLO attainment</div><div class=\"v\">n/a", "n/a req/s = 0 / 0 s window", "no requests", "no successful request has this metric"} {
		if !strings.Contains(empty, want) {
			t.Errorf("empty report's page lacks %q", want)
		}
	}
	r := smallHTMLReport(t)
	r.Attainment, r.WilsonLower, r.HorizonMS = htmlFloat(math.NaN()), htmlFloat(math.Inf(1)), math.NaN()
	r.Requests[0].TTFTMS, r.Requests[0].ScheduledMS = htmlFloat(math.Inf(-1)), math.NaN()
	odd := renderHTML(t, r)
	// One request late in a long run: the time axis has no span.
	point := renderHTML(t, &report.Report{WindowMS: [2]float64{1e12, 1e12}, Requests: []report.RequestScore{
		{ID: "x", Status: record.StatusSuccess, ScheduledMS: 1e12, TTFTMS: htmlFloat(5), TTFTFromScheduledMS: htmlFloat(5), Qualified: true}}})
	if !strings.Contains(point, "1 of 1 offered requests placed; 1 marks drawn") || !strings.Contains(point, `data-steps="1"`) {
		t.Errorf("a one-request report's charts")
	}
	for name, p := range map[string]string{"small": page, "empty": empty, "not finite": odd, "one request": point} {
		if strings.Contains(p, "NaN") || strings.Contains(p, "Inf") {
			t.Errorf("%s page prints a non-finite value", name)
		}
	}
	if !strings.Contains(odd, "2.000 req/s (2 / n/a s horizon)") {
		t.Errorf("a NaN horizon is not n/a")
	}
}

func TestHTMLEscapesEveryStringFromTheReport(t *testing.T) {
	r := smallHTMLReport(t)
	r.Experiment = &report.Experiment{
		RunID: `run"><svg onload=alert(1)>`, Model: `<img src=x onerror=alert(1)>`, BaseURL: `javascript:alert(1)`,
		Workload: `</title><script>alert(2)</script>`, Engine: &report.EngineInfo{Kind: `<iframe>`},
		Notes: []string{`<style>body{display:none}</style>`},
	}
	r.EngineMetrics = &report.EngineMetrics{URL: `http://h/<b>`, Counters: map[string]float64{`x{l="<i>"}`: 2}}
	page := renderHTML(t, r)
	for _, bad := range []string{"<script", "<img", "<iframe", "<svg onload", "<b>", "<i>", "<style>body", "href="} {
		if strings.Contains(page, bad) {
			t.Errorf("page holds unescaped %q", bad)
		}
	}
	for _, want := range []string{
		"&lt;script&gt;alert(1)&lt;/script&gt;",
		"upstream said &lt;b&gt;busy&lt;/b&gt; &amp; &#34;gone&#34;",
		"&lt;img src=x onerror=alert(1)&gt;",
		"run&#34;&gt;&lt;svg onload=alert(1)&gt;",
		"x{l=&#34;&lt;i&gt;&#34;}",
	} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks the escaped %q", want)
		}
	}
	if strings.Count(page, "<style>") != 1 {
		t.Errorf("want the page's own style sheet only")
	}
}

func TestHTMLListsTheWorstUnqualifiedRequests(t *testing.T) {
	page := renderHTML(t, smallHTMLReport(t))
	if !strings.Contains(page, "3 of 3 unqualified requests shown") {
		t.Fatal("caption")
	}
	// The ones that did not succeed first, in schedule order, then b.
	for _, want := range [][]string{
		{"c", "", "timeout", "status", "400", "0", "n/a", "n/a", "n/a", "500", "n/a", "no content within the first-token deadline"},
		{scriptID, "", "http_error", "status", "600", "0", "n/a", "n/a", "n/a", "2", "n/a", `upstream said <b>busy</b> & "gone"`},
		{"b", "", "success", "ttft", "200", "0", "150", "150", "10", "200", "5", ""},
	} {
		if got := tableRow(page, want[0]); fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("row %s:\n got %q\nwant %q", want[0], got, want)
		}
	}
	r := smallHTMLReport(t)
	r.Requests[2].Error = strings.Repeat("é", 301)
	if c := tableRow(renderHTML(t, r), "c"); c[11] != strings.Repeat("é", 300)+"… (cut at 300 of 301 characters; the JSON report holds them all)" {
		t.Errorf("a long error is not cut at 300 characters: %q", c[11])
	}
	c, h, b := strings.Index(page, ">c</td>"), strings.Index(page, ">&lt;script&gt;"), strings.LastIndex(page, ">b</td>")
	if !(c < h && h < b) || tableRow(page, "a") != nil || tableRow(page, "e") != nil {
		t.Fatal("worst table order, or a qualified request listed")
	}
}

func TestHTMLDrawsOneMarkPerRequest(t *testing.T) {
	page := renderHTML(t, smallHTMLReport(t))
	// Qualified a and e, unqualified b, then the http_error and the
	// timeout each in its lane: one mark per request (the marks' places
	// are checked in the chart tests).
	for class, want := range map[string]string{"k0": "2", "k1": "1", "k2": "1", "k4": "1"} {
		if got := attr(t, page, `data-series="`+class+`"`, "data-marks"); got != want {
			t.Errorf("series %s: %s marks, want %s", class, got, want)
		}
	}
	if !strings.Contains(page, "5 of 5 offered requests placed; 5 marks drawn, one per request") {
		t.Error("scatter caption")
	}
	if !strings.Contains(page, ">http_error (1)</text>") || !strings.Contains(page, ">timeout (1)</text>") {
		t.Error("lane labels")
	}
	// The TTFT CDF over 30, 50, 150 draws its three steps, and the bound.
	if got := attr(t, page, `aria-label="Empirical CDF of TTFT`, "data-steps"); got != "3" {
		t.Errorf("TTFT CDF steps %s", got)
	}
	if !strings.Contains(page, "3 successful requests; every step drawn. 2 of 3 (66.7%) at or below the TTFT bound of 100 ms.") {
		t.Error("CDF caption")
	}
	if !strings.Contains(page, ">TTFT bound 100 ms</text>") {
		t.Error("the TTFT bound is not labelled")
	}
	// Two CDFs and the scatter; one drift interval is no timeline.
	if n := checkPageSVGs(t, page); n != 3 {
		t.Errorf("%d charts, want 3", n)
	}
}

// checkPageSVGs parses every <svg> element of page that is a chart (not a
// legend swatch) as XML and returns how many there are.
func checkPageSVGs(t *testing.T, page string) int {
	t.Helper()
	n := 0
	for rest := page; ; {
		i := strings.Index(rest, "<svg")
		if i < 0 {
			return n
		}
		j := strings.Index(rest[i:], "</svg>")
		if j < 0 {
			t.Fatal("unterminated svg")
		}
		elem := rest[i : i+j+len("</svg>")]
		dec := xml.NewDecoder(strings.NewReader(elem))
		for {
			_, err := dec.Token()
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatalf("svg does not parse: %v\n%.300s", err, elem)
			}
		}
		if !strings.HasPrefix(elem, `<svg viewBox="0 0 12 12">`) {
			n++
		}
		rest = rest[i+j:]
	}
}

// largeHTMLReport scores n requests, one per millisecond, with every 50th
// timing out and every 97th answered with HTTP 500; successes take 20 to
// 419 ms to the first token.
func largeHTMLReport(t *testing.T, n int) *report.Report {
	t.Helper()
	s := &schedule.Schedule{Schema: schedule.Schema, Mode: schedule.ModeOpen, WindowMS: [2]float64{0, float64(n)}, ScheduleLagToleranceMS: 20}
	outs := make([]record.Outcome, 0, n)
	firstToken := record.TimeoutFirstToken
	status500 := 500
	for i := range n {
		id := fmt.Sprintf("r%06d", i)
		a := float64(i)
		s.Entries = append(s.Entries, schedule.Entry{ID: id, Row: i, ScheduledMS: a, MaxTokens: 8})
		switch {
		case i%50 == 0:
			outs = append(outs, record.Outcome{ID: id, Attempt: 1, Status: record.StatusTimeout, ScheduledMS: a, SlotMS: htmlFloat(a),
				SentMS: htmlFloat(a + 0.5), TerminalMS: a + 1000.5, Timeout: &firstToken, Error: "no first token"})
		case i%97 == 0:
			outs = append(outs, record.Outcome{ID: id, Attempt: 1, Status: record.StatusHTTPError, ScheduledMS: a, SlotMS: htmlFloat(a),
				SentMS: htmlFloat(a + 0.5), TerminalMS: a + 2.5, HTTPStatus: &status500, Error: "HTTP 500"})
		default:
			f := a + 0.5 + float64(20+(i*7919)%400)
			outs = append(outs, htmlSuccess(id, a, a+0.5, []float64{f, f + 25, f + 50}, 10, f+51))
		}
	}
	r, err := score.Outcomes(s, outs, score.Options{SLO: report.SLO{TTFT: 300 * time.Millisecond}})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// largePageBound is the most bytes the page of a 100,000-request report
// may take: the charts are bounded (2,000 scatter marks, 400 steps per
// CDF, the Timeline's client charts one point per drift interval, 20
// here and at most 2,048 whatever the requests) and only the 20 worst
// requests get rows.
const largePageBound = 128 << 10

func TestHTMLStaysSmallFor100000Requests(t *testing.T) {
	r := largeHTMLReport(t, 100_000)
	start := time.Now()
	page := renderHTML(t, r)
	elapsed := time.Since(start)
	t.Logf("100,000 requests: %d bytes in %v", len(page), elapsed)
	if len(page) > largePageBound {
		t.Fatalf("page is %d bytes, over %d", len(page), largePageBound)
	}
	marks := 0
	for _, m := range regexp.MustCompile(`data-marks="(\d+)"`).FindAllStringSubmatch(page, -1) {
		var k int
		fmt.Sscan(m[1], &k)
		marks += k
	}
	if marks == 0 || marks > 2000 {
		t.Fatalf("%d scatter marks, want 1 to 2000", marks)
	}
	if !strings.Contains(page, fmt.Sprintf("100000 of 100000 offered requests placed; %d marks drawn (thinned: within each kind, the first request of each", marks)) {
		t.Error("scatter caption does not say how many marks are drawn")
	}
	// 2,000 timeouts and 1,010 HTTP errors (multiples of 97 that are not
	// multiples of 50) in their lanes: with one tick per cell, each lane
	// still holds a mark wherever it has requests.
	if !strings.Contains(page, ">timeout (2000)<") || !strings.Contains(page, ">http_error (1010)<") {
		t.Error("lane labels")
	}
	// Two CDFs, the scatter, and the Timeline's three client charts over
	// its 20 drift intervals.
	if n := checkPageSVGs(t, page); n != 6 {
		t.Errorf("%d charts, want 6", n)
	}
	if got := strings.Count(page, `data-steps="400"`); got != 2 {
		t.Errorf("%d CDFs drawn through 400 order statistics, want 2", got)
	}
	if !strings.Contains(page, "96990 successful requests; drawn through 400 evenly spaced order statistics, each read from bins 1/1024 of an octave wide") {
		t.Error("CDF caption")
	}
	if rows := strings.Count(page, `<td class="id mono`); rows != 20 {
		t.Errorf("%d rows of worst requests, want 20", rows)
	}
}
