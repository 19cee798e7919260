package servebench_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/servebench/servebench/fixtures/simengine"
	"github.com/servebench/servebench/servebench"
	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/servebench/report/render"
)

func TestRunWritesTheReportPageBesideTheReport(t *testing.T) {
	srv := simengine.StartTest(t, func(c *simengine.Config) { c.TimeScale = 0.1 })
	dir := t.TempDir()
	res, err := servebench.Run(context.Background(), servebench.RunConfig{
		Workload: workloadOf(t, `{"id":"a","prompt":"check the pager","max_tokens":4}
{"id":"b","prompt":"summarize the outage","max_tokens":4}
`),
		Arrival: constant(t, 20), Count: 2, OutputDir: dir, Client: clientFor(srv),
	})
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(filepath.Join(dir, record.ReportHTMLFile))
	if err != nil {
		t.Fatal(err)
	}
	var want bytes.Buffer
	if err := render.HTML(&want, res.Report); err != nil {
		t.Fatal(err)
	}
	if string(got) != want.String() {
		t.Fatalf("%s differs from the report's page", record.ReportHTMLFile)
	}
	if !strings.Contains(string(got), res.Schedule.RunID) {
		t.Fatal("the page lacks the run ID")
	}
}
