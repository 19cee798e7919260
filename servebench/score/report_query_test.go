package score

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/servebench/report"
	"github.com/servebench/servebench/servebench/stats"
)

func TestReportPercentileFromSamplesAndFromJSON(t *testing.T) {
	r, err := TraceFiles(seedTracePath, seedEventsPath)
	if err != nil {
		t.Fatal(err)
	}
	// TTFT [199, 218, 240, 285, 420]: nearest-rank p75 is rank ceil(3.75) = 4.
	v, n, pop, err := r.Percentile(record.MetricTTFT, 75)
	if err != nil || v != 285 || n != 5 || !strings.HasPrefix(pop, "successful requests") {
		t.Fatalf("p75 = %v n %d pop %q err %v", v, n, pop, err)
	}
	data, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	var back report.Report
	if err := json.Unmarshal(data, &back); err != nil {
		t.Fatal(err)
	}
	// From JSON only the stored summaries answer.
	if v, n, _, err := back.Percentile(record.MetricITL, 95); err != nil || v != 120 || n != 16 {
		t.Fatalf("stored p95 = %v n %d err %v", v, n, err)
	}
	if v, _, _, err := back.Percentile(record.MetricE2E, 100); err != nil || v != 628 {
		t.Fatalf("stored max = %v err %v", v, err)
	}
	if _, _, _, err := back.Percentile(record.MetricTTFT, 75); err == nil || !strings.Contains(err.Error(), "keeps only min, p50, p90, p95, p99, max and those asked for") {
		t.Fatalf("p75 from JSON: %v", err)
	}
	if _, _, _, err := r.Percentile("gpu_temperature", 50); err == nil {
		t.Fatal("unknown metric answered")
	}
	if _, _, _, err := r.Percentile(record.MetricClientQueue, 50); err == nil || !strings.Contains(err.Error(), "population is empty") {
		t.Fatalf("empty population: %v", err)
	}
	if _, _, _, err := r.Percentile(record.MetricTTFT, 101); err == nil {
		t.Fatal("p101 answered")
	}
	var nilReport *report.Report
	if _, _, _, err := nilReport.Percentile(record.MetricTTFT, 50); err == nil {
		t.Fatal("nil report answered")
	}
}

func TestReportPercentileLinearMethod(t *testing.T) {
	trace, events := seedInputs(t)
	r, err := Trace("trace.json", trace, "events.jsonl", events, Options{PercentileMethod: stats.Linear})
	if err != nil {
		t.Fatal(err)
	}
	// Linear p75 of [199, 218, 240, 285, 420]: h = 3, exactly 285; p90:
	// h = 3.6, 285 + 0.6·135 = 366.
	if v, _, _, _ := r.Percentile(record.MetricTTFT, 90); v != 366 {
		t.Fatalf("linear p90 = %v", v)
	}
	wantFloat(t, "stored linear p90", r.Percentiles[record.MetricTTFT].P90, 366)
}
