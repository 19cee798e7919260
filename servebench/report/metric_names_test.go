package report_test

import (
	"slices"
	"testing"

	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/servebench/report"
)

func TestMetricNamed(t *testing.T) {
	for _, c := range []struct {
		name string
		want record.Metric
		ok   bool
	}{
		{"ttft", record.MetricTTFT, true},
		{"ttft_ms", record.MetricTTFT, true},
		{"max_gap", report.MetricMaxGap, true},
		{"client_queue", record.MetricClientQueue, true},
		{"ttft_ms_ms", "", false},
		{"latency", "", false},
		{"", "", false},
	} {
		if got, ok := report.MetricNamed(c.name); got != c.want || ok != c.ok {
			t.Errorf("MetricNamed(%q) = %q, %v; want %q, %v", c.name, got, ok, c.want, c.ok)
		}
	}
	want := []string{"ttft", "ttft_from_scheduled", "tpot", "itl", "chunk_gap", "max_gap", "e2e", "last_token", "schedule_lag", "client_queue"}
	if got := report.MetricNames(); !slices.Equal(got, want) {
		t.Fatalf("MetricNames = %v, want %v", got, want)
	}
}

func TestErrorRate(t *testing.T) {
	r := &report.Report{Offered: 200, ProtocolSuccesses: 190}
	if rate, errs, ok := r.ErrorRate(); rate != 0.05 || errs != 10 || !ok {
		t.Fatalf("ErrorRate = %v, %d, %v; want 0.05, 10, true", rate, errs, ok)
	}
	if _, _, ok := (&report.Report{}).ErrorRate(); ok {
		t.Fatal("ErrorRate of a report with nothing offered is defined")
	}
}
