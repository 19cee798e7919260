package servebench_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/servebench/servebench/fixtures/simengine"
	"github.com/servebench/servebench/internal/ssetest"
	"github.com/servebench/servebench/servebench"
	"github.com/servebench/servebench/servebench/record"
)

// TestRunReportsNeverHoldTheBaseURLsUserinfo: report.json, report.html,
// outcomes.jsonl and warmup.jsonl of a run whose base URL carries a user
// name and password hold neither.
func TestRunReportsNeverHoldTheBaseURLsUserinfo(t *testing.T) {
	srv := simengine.StartTest(t, func(c *simengine.Config) { c.TimeScale = 0.05 })
	c := clientFor(srv)
	c.BaseURL = strings.Replace(c.BaseURL, "http://", "http://operator:PASSWORD123@", 1)
	res, err := servebench.Run(context.Background(), servebench.RunConfig{
		Workload: workloadOf(t, `{"id":"a","prompt":"check the pager","max_tokens":4}
`),
		Arrival: constant(t, 50), Count: 2, Warmup: 1, Client: c, OutputDir: t.TempDir(),
		// A metrics endpoint with userinfo that cannot be scraped: its URL
		// and the scrape's error are written to the report.
		EngineMetrics: servebench.EngineMetricsConfig{URL: strings.Replace(ssetest.ClosedPortURL(t), "http://", "http://operator:PASSWORD123@", 1) + "/metrics"},
	})
	if err != nil {
		t.Fatal(err)
	}
	if res.Report.EngineMetrics == nil || len(res.Report.EngineMetrics.Errors) == 0 {
		t.Error("the unscrapable metrics endpoint left no error in the report")
	}
	if res.Report.Experiment.BaseURL != strings.Replace(srv.BaseURL(), "http://", "http://[redacted]@", 1) {
		t.Errorf("experiment base_url %q", res.Report.Experiment.BaseURL)
	}
	for _, name := range []string{record.ReportFile, record.ReportHTMLFile, record.OutcomesFile, record.WarmupFile, record.ScheduleFile} {
		data, err := os.ReadFile(filepath.Join(res.Dir, name))
		if err != nil {
			t.Fatal(err)
		}
		for _, secret := range []string{"PASSWORD123", "operator"} {
			if strings.Contains(string(data), secret) {
				t.Errorf("%s contains %q", name, secret)
			}
		}
	}
}
