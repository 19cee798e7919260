package score_test

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/servebench/servebench/internal/ssetest"
	"github.com/servebench/servebench/servebench"
	"github.com/servebench/servebench/servebench/openai"
	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/servebench/report"
	"github.com/servebench/servebench/servebench/report/render"
	"github.com/servebench/servebench/servebench/schedule"
	"github.com/servebench/servebench/servebench/score"
)

// runEndpoint runs count requests of workload at 20 req/s against srv and
// returns the result.
func runEndpoint(t *testing.T, srv *ssetest.Server, e record.Endpoint, workload string, count int, slo report.SLO) (*servebench.RunResult, error) {
	t.Helper()
	w, err := schedule.ParseWorkload("w.jsonl", []byte(workload))
	if err != nil {
		t.Fatal(err)
	}
	arrival, err := schedule.NewArrival(schedule.ArrivalSpec{Process: "constant", RateRPS: 20})
	if err != nil {
		t.Fatal(err)
	}
	return servebench.Run(context.Background(), servebench.RunConfig{
		Workload: w, Arrival: arrival, Count: count, OutputDir: t.TempDir(), LagTolerance: time.Second,
		Client: &openai.Client{BaseURL: srv.URL, Model: "m", Endpoint: e, TotalTimeout: 10 * time.Second},
		Score:  score.Options{SLO: slo},
	})
}

func TestEmbeddingsReportDefinesE2EOnly(t *testing.T) {
	srv := ssetest.New(t, ssetest.JSONAnswer(0, ssetest.EmbeddingsAnswer(12, 4, 4, 4)))
	res, err := runEndpoint(t, srv, record.EndpointEmbeddings, `{"input":["a","b","c"]}`, 4, report.SLO{E2E: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	r := res.Report
	if r.Offered != 4 || r.ProtocolSuccesses != 4 || r.Qualified != 4 || r.Endpoint != record.EndpointEmbeddings {
		t.Fatalf("offered %d successes %d qualified %d endpoint %q", r.Offered, r.ProtocolSuccesses, r.Qualified, r.Endpoint)
	}
	var metrics []string
	for m := range r.Percentiles {
		metrics = append(metrics, string(m))
	}
	if len(metrics) != 3 || r.Percentiles[record.MetricE2E].N != 4 {
		t.Errorf("percentiles %v (e2e n %d): want e2e_ms, schedule_lag_ms and client_queue_ms only", metrics, r.Percentiles[record.MetricE2E].N)
	}
	// 4 requests of 3 inputs and 12 prompt tokens each: 12 items and 48
	// tokens over the horizon.
	secs := r.HorizonMS / 1000
	want := map[record.ThroughputUnit]int{"requests/s": 4, "items/s": 12, "input_tokens/s": 48}
	if len(r.Throughput) != 3 {
		t.Fatalf("throughput %+v", r.Throughput)
	}
	for _, tr := range r.Throughput {
		if tr.Count != want[tr.Unit] || tr.PerSecond != float64(want[tr.Unit])/secs {
			t.Errorf("%s: count %d rate %v, want %d and %v", tr.Unit, tr.Count, tr.PerSecond, want[tr.Unit], float64(want[tr.Unit])/secs)
		}
	}
	// report.json: TTFT is absent, not null and not 0.
	data, err := os.ReadFile(filepath.Join(res.Dir, record.ReportFile))
	if err != nil {
		t.Fatal(err)
	}
	var raw struct {
		Percentiles map[string]json.RawMessage `json:"percentiles"`
	}
	if err := json.Unmarshal(data, &raw); err != nil {
		t.Fatal(err)
	}
	for _, m := range []string{"ttft_ms", "tpot_ms", "itl_ms", "chunk_gap_ms", "last_token_ms", "ttft_from_scheduled_ms"} {
		if v, ok := raw.Percentiles[m]; ok {
			t.Errorf("report.json percentiles has %s = %s", m, v)
		}
	}
	// The HTML page has no TTFT chart and gives the rates.
	page, err := os.ReadFile(filepath.Join(res.Dir, record.ReportHTMLFile))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(page), "TTFT: first content") || !strings.Contains(string(page), "Throughput items/s") {
		t.Errorf("report.html has a TTFT chart or lacks the items/s rate")
	}
	// Re-scoring the directory keeps the endpoint from report.json.
	again, err := score.RunDir(res.Dir, score.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if again.Endpoint != record.EndpointEmbeddings || len(again.Percentiles) != 3 {
		t.Errorf("re-scored endpoint %q with %d metrics", again.Endpoint, len(again.Percentiles))
	}
	// The text report shows only the defined metrics.
	var text strings.Builder
	if err := render.Text(&text, r); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(text.String(), "ttft_ms") || !strings.Contains(text.String(), "items/s") {
		t.Errorf("text report:\n%s", text.String())
	}
}

func TestRerankReportCountsDocuments(t *testing.T) {
	srv := ssetest.New(t, ssetest.JSONAnswer(0, `{"results":[{"index":1,"relevance_score":0.9},{"index":0,"relevance_score":0.1}],"usage":{"total_tokens":10}}`))
	res, err := runEndpoint(t, srv, record.EndpointRerank, `{"query":"q","documents":["a","b"]}`, 3, report.SLO{})
	if err != nil {
		t.Fatal(err)
	}
	got := map[record.ThroughputUnit]int{}
	for _, tr := range res.Report.Throughput {
		got[tr.Unit] = tr.Count
	}
	if got["documents/s"] != 6 || got["items/s"] != 6 || got["requests/s"] != 3 || got["input_tokens/s"] != 30 {
		t.Errorf("throughput counts %v", got)
	}
}

// A wrong answer is invalid_response and stays in the denominator.
func TestInvalidResponsesCountAgainstAttainment(t *testing.T) {
	srv := ssetest.New(t, ssetest.JSONAnswer(0, ssetest.EmbeddingsAnswer(2, 4)))
	res, err := runEndpoint(t, srv, record.EndpointEmbeddings, `{"input":["a","b"]}`, 2, report.SLO{})
	if err != nil {
		t.Fatal(err)
	}
	r := res.Report
	if r.StatusCounts[record.StatusInvalidResponse] != 2 || r.Qualified != 0 || *r.Attainment != 0 {
		t.Errorf("status counts %v qualified %d attainment %v", r.StatusCounts, r.Qualified, *r.Attainment)
	}
}

func TestUndefinedObjectiveIsRefusedBeforeLoad(t *testing.T) {
	srv := ssetest.New(t, ssetest.JSONAnswer(0, ssetest.EmbeddingsAnswer(1, 4)))
	_, err := runEndpoint(t, srv, record.EndpointEmbeddings, `{"input":"a"}`, 1, report.SLO{TTFT: time.Second})
	var u *score.UndefinedObjectiveError
	if !errors.As(err, &u) || u.Objective != "ttft" {
		t.Fatalf("err %v, want an undefined ttft objective", err)
	}
	want := "run: a ttft objective cannot be judged on the embeddings endpoint: it has no first token, so it defines e2e_ms only"
	if err.Error() != want {
		t.Errorf("err %q\nwant %q", err, want)
	}
	sent := len(srv.Bodies())
	if sent != 0 {
		t.Errorf("%d requests sent before the objective was refused", sent)
	}
}
