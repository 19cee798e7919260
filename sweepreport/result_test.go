package sweepreport

import (
	"encoding/json"
	"encoding/xml"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/servebench/servebench/servebench/capacity"
	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/servebench/report"
	"github.com/servebench/servebench/servebench/schedule"
)

func ptr[T any](v T) *T { return &v }

// report builds a report with the fields a sweep row reads: offered and
// qualified counts over a 10 s window and horizon, TTFT percentiles, and
// the output tokens of its successes (each carrying tokensEach).
func reportOf(offered, qualified int, ttftP99 float64, tokensEach int, growing bool) *report.Report {
	r := &report.Report{Offered: offered, Qualified: qualified, ProtocolSuccesses: qualified, Valid: true,
		Attainment: ptr(float64(qualified) / float64(offered)), WindowMS: [2]float64{0, 10000}, HorizonMS: 10000,
		OfferedRPS: ptr(float64(offered) / 10), QualifiedRPS: ptr(float64(qualified) / 10), SuccessfulRPS: ptr(float64(qualified) / 10),
		SLO:         report.SLO{TTFT: 500 * time.Millisecond},
		Percentiles: map[record.Metric]report.Distribution{record.MetricTTFT: {P50: ptr(ttftP99 / 2), P90: ptr(ttftP99 * 0.8), P99: ptr(ttftP99)}},
		Backlog:     &report.Backlog{AtWindowMid: 1, AtWindowEnd: 1, Growing: growing},
		Inputs:      report.Inputs{WorkloadSHA256: "abc"}, OutputTokens: int64(qualified * tokensEach)}
	if growing {
		r.Backlog.AtWindowEnd = 30
	}
	for i := range offered {
		q := report.RequestScore{Status: record.StatusSuccess, ScheduledMS: float64(i * 100), OutputTokens: ptr(tokensEach)}
		if i >= qualified {
			q.Status = record.StatusTimeout
		}
		r.Requests = append(r.Requests, q)
	}
	return r
}

func sampleSweep(dir string) *capacity.Sweep {
	points := []capacity.Point{
		{OfferedRPS: 2, Repeat: 1, RunDir: filepath.Join(dir, "rate-2"), Report: reportOf(20, 20, 120, 50, false)},
		{OfferedRPS: 4, Repeat: 1, RunDir: filepath.Join(dir, "rate-4", "run-1"), Report: reportOf(40, 39, 300, 50, false)},
		{OfferedRPS: 4, Repeat: 2, RunDir: filepath.Join(dir, "rate-4", "run-2"), Report: reportOf(40, 40, 280, 50, false)},
		{OfferedRPS: 8, Repeat: 1, RunDir: filepath.Join(dir, "rate-8"), Report: reportOf(80, 60, 900, 50, true)},
	}
	sw := capacity.NewSweep(points, capacity.Rule{MinAttainment: 0.95, RequireNoBacklogGrowth: true})
	sw.Arrival = &schedule.ArrivalSpec{Process: "poisson", Seed: 3}
	return sw
}

func TestFromSweepRowsAndKnee(t *testing.T) {
	dir := t.TempDir()
	res := FromSweep(sampleSweep(dir), dir)
	if res.KneeRPS == nil || *res.KneeRPS != 4 || res.FailingNeighborRPS == nil || *res.FailingNeighborRPS != 8 || !res.Monotonic {
		t.Fatalf("knee %v neighbor %v monotonic %v", res.KneeRPS, res.FailingNeighborRPS, res.Monotonic)
	}
	if !strings.HasPrefix(res.KneeRule, "highest passing tested offered rate (attainment ≥ 0.95, load delivered, no backlog growth)") {
		t.Fatalf("knee rule %q", res.KneeRule)
	}
	if res.WorkloadSHA256 != "abc" || res.SLO == nil || res.SLO.TTFT != 500*time.Millisecond || len(res.Rates) != 4 {
		t.Fatalf("header %+v", res)
	}
	r := res.Rates[1]
	// 39 successes × 50 tokens over a 10 s horizon = 195 tokens/s.
	if r.RateRPS != 4 || r.Repeat != 1 || *r.OfferedRPS != 4 || *r.OutputTokensPerS != 195 || *r.TTFTP99MS != 300 ||
		r.RunDir != "rate-4/run-1" || r.Verdict != "pass" || r.WilsonLower == nil {
		t.Fatalf("row 1 %+v", r)
	}
	last := res.Rates[3]
	if last.Verdict != "fail" || len(last.Reasons) != 2 || !strings.Contains(last.Reasons[0], "attainment 0.750 (60 of 80 qualified)") {
		t.Fatalf("row 3 %+v", last)
	}
	// The JSON form names every field the file promises and never null
	// where a list is expected.
	b, err := res.MarshalIndent()
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	row := m["rates"].([]any)[0].(map[string]any)
	for _, k := range []string{"rate_rps", "offered_rps", "attainment", "wilson_lower", "qualified_rps", "successful_rps", "output_tokens_per_s",
		"ttft_p50_ms", "ttft_p90_ms", "ttft_p99_ms", "tpot_p50_ms", "tpot_p90_ms", "tpot_p99_ms", "e2e_p50_ms", "e2e_p90_ms", "e2e_p99_ms",
		"max_schedule_lag_ms", "backlog", "verdict", "reasons", "run_dir"} {
		if _, ok := row[k]; !ok {
			t.Errorf("rates[0] lacks %q", k)
		}
	}
	if m["inconclusive_rps"] == nil || m["notes"] == nil || m["monotonic"] != true {
		t.Errorf("top level %v", m)
	}
}

// Every SVG in the page parses as XML, the page needs no other file, and
// every run links to its report.
func TestWriteFilesPageIsSelfContained(t *testing.T) {
	dir := t.TempDir()
	res := FromSweep(sampleSweep(dir), dir)
	if err := res.WriteFiles(dir); err != nil {
		t.Fatal(err)
	}
	again, err := Load(dir)
	if err != nil || len(again.Rates) != 4 || *again.KneeRPS != 4 {
		t.Fatalf("Load: %v %+v", err, again)
	}
	page, err := os.ReadFile(filepath.Join(dir, HTMLFile))
	if err != nil {
		t.Fatal(err)
	}
	svgs := checkSVGs(t, string(page))
	// TTFT, attainment, goodput and tokens; TPOT and E2E have no data and
	// say so instead of drawing an empty frame.
	if svgs != 4 || strings.Count(string(page), "no run has this metric") != 2 {
		t.Fatalf("%d charts, want 4", svgs)
	}
	for _, want := range []string{`href="rate-4/run-2/report.html"`, "Knee: 4 req/s", "SLO bound 500 ms", ">knee: 4 req/s</text>", "target 0.95"} {
		if !strings.Contains(string(page), want) {
			t.Errorf("page lacks %q", want)
		}
	}
	// When the knee's runs realized another rate than the nominal one, the
	// headline and the line, drawn at the realized mean, name both.
	for i := range res.Rates {
		if res.Rates[i].RateRPS == 4 {
			res.Rates[i].OfferedRPS = ptr(3.8)
		}
	}
	var moved strings.Builder
	if err := res.WriteHTML(&moved); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Knee: 4 req/s nominal (3.80 req/s realized), the highest", ">knee: 4 req/s nominal (3.80 req/s realized)</text>"} {
		if !strings.Contains(moved.String(), want) {
			t.Errorf("page lacks %q", want)
		}
	}
	for _, banned := range []string{"<script", "src=\"http", "href=\"http", "url(http", "@import"} {
		if strings.Contains(string(page), banned) {
			t.Errorf("page holds %q", banned)
		}
	}
}

// checkSVGs parses every <svg> element of page and returns how many there
// are.
func checkSVGs(t *testing.T, page string) int {
	t.Helper()
	n := 0
	for rest := page; ; n++ {
		i := strings.Index(rest, "<svg")
		if i < 0 {
			return n
		}
		j := strings.Index(rest[i:], "</svg>")
		if j < 0 {
			t.Fatalf("unterminated svg")
		}
		dec := xml.NewDecoder(strings.NewReader(rest[i : i+j+len("</svg>")]))
		for {
			_, err := dec.Token()
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatalf("svg %d does not parse: %v", n, err)
			}
		}
		rest = rest[i+j:]
	}
}
