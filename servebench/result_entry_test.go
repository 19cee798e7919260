package servebench_test

import (
	"encoding/json"
	"testing"

	"github.com/servebench/servebench/servebench"
	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/servebench/report"
	"github.com/servebench/servebench/servebench/schedule"
)

func TestRunResultRendersAsAReportEntry(t *testing.T) {
	a, w, ttft := 1.0, 0.8, 120.5
	res := &servebench.RunResult{Dir: "/runs/x", Report: &report.Report{
		Offered: 4, Qualified: 4, Attainment: &a, WilsonLower: &w, WilsonConfidence: 0.95,
		StatusCounts: map[record.Status]int{record.StatusSuccess: 4},
		Percentiles:  map[record.Metric]report.Distribution{servebench.TTFT: {N: 4, P99: &ttft}},
		Valid:        true,
	}}
	want := "attainment 1.000 (4 of 4 offered qualified), Wilson lower 0.800 at 95%; success 4; " +
		"p99 ttft 120.5 ms (n=4); {{green}}load delivered{{/}}; run directory /runs/x"
	if got := res.ColorableString(); got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	if got := (&servebench.RunResult{Dir: "/runs/y"}).ColorableString(); got != "no report; run directory /runs/y" {
		t.Errorf("without a report: %s", got)
	}
}

// The entry's JSON carries the report, not the schedule or the warmup
// records, so it does not grow with the run.
func TestRunResultJSONLeavesTheScheduleInTheRunDirectory(t *testing.T) {
	res := &servebench.RunResult{Dir: "/runs/x", ScheduleSHA256: "abc", Schedule: &schedule.Schedule{},
		Warmup: []record.Outcome{{ID: "w"}}, Report: &report.Report{Offered: 2}}
	data, err := json.Marshal(res)
	if err != nil {
		t.Fatal(err)
	}
	var got map[string]json.RawMessage
	if err := json.Unmarshal(data, &got); err != nil {
		t.Fatal(err)
	}
	if len(got) != 3 || got["dir"] == nil || got["schedule_sha256"] == nil || got["report"] == nil {
		t.Errorf("JSON %s, want dir, schedule_sha256 and report alone", data)
	}
}
