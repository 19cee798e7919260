package servebench_test

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/servebench/servebench/fixtures/simengine"
	"github.com/servebench/servebench/servebench"
	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/servebench/report"
	"github.com/servebench/servebench/servebench/schedule"
	"github.com/servebench/servebench/servebench/score"
)

// Every run keeps no outcomes, writes one request entry per offered
// request to requests.jsonl and none to report.json, and its report equals
// what the in-memory scorer makes of the same files.
func TestRunKeepsNoPerRequestState(t *testing.T) {
	srv := simengine.StartTest(t, func(c *simengine.Config) { c.TimeScale = 0.1 })
	w := workloadOf(t, `{"id":"a","prompt":"check the pager","max_tokens":8,"ignore_eos":true}
{"id":"b","prompt":"summarize the outage","max_tokens":5,"ignore_eos":true}
`)
	arrival, client := constant(t, 40), clientFor(srv)
	dir := t.TempDir()
	res, err := servebench.Run(context.Background(), servebench.RunConfig{
		Workload: w, Arrival: arrival, Count: 24, Client: client, OutputDir: dir,
		LagTolerance: 5 * time.Second, RunID: "bounded-1", Score: score.Options{SLO: report.SLO{E2E: 10 * time.Second}},
	})
	if err != nil {
		t.Fatal(err)
	}
	rep := res.Report
	if rep.Requests != nil || rep.Offered != 24 || rep.ProtocolSuccesses != 24 {
		t.Fatalf("requests kept %d, offered %d, successes %d", len(rep.Requests), rep.Offered, rep.ProtocolSuccesses)
	}
	// The schedule was written as it was realized, never held whole: the
	// result has its header only, and the file holds the same bytes as the
	// schedule realized in memory.
	if res.Schedule.Entries != nil || res.Schedule.RunID != "bounded-1" {
		t.Fatalf("result schedule holds %d entries, run %q", len(res.Schedule.Entries), res.Schedule.RunID)
	}
	whole, err := schedule.Build(schedule.Plan{Workload: w, Arrival: arrival, Count: 24,
		LagTolerance: 5 * time.Second, RunID: "bounded-1"})
	if err != nil {
		t.Fatal(err)
	}
	wholePath := filepath.Join(t.TempDir(), record.ScheduleFile)
	wholeSum, err := schedule.Write(wholePath, whole)
	if err != nil {
		t.Fatal(err)
	}
	streamed, _ := os.ReadFile(filepath.Join(dir, record.ScheduleFile))
	inMemory, _ := os.ReadFile(wholePath)
	if string(streamed) != string(inMemory) || res.ScheduleSHA256 != wholeSum || rep.Inputs.ScheduleSHA256 != wholeSum {
		t.Fatalf("streamed schedule (hash %s, report %s) differs from the one realized in memory (hash %s)",
			res.ScheduleSHA256, rep.Inputs.ScheduleSHA256, wholeSum)
	}
	f, err := os.Open(filepath.Join(dir, record.RequestsFile))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	lines := 0
	for sc := bufio.NewScanner(f); sc.Scan(); lines++ {
		var rs report.RequestScore
		if err := json.Unmarshal(sc.Bytes(), &rs); err != nil || rs.TTFTMS == nil {
			t.Fatalf("requests.jsonl line %d: %v %+v", lines+1, err, rs)
		}
	}
	if lines != 24 {
		t.Fatalf("requests.jsonl has %d lines, want 24", lines)
	}
	var onDisk map[string]json.RawMessage
	data, _ := os.ReadFile(filepath.Join(dir, record.ReportFile))
	err = json.Unmarshal(data, &onDisk)
	if _, kept := onDisk["requests"]; err != nil || kept || string(onDisk["requests_file"]) != `"requests.jsonl"` {
		t.Fatalf("report.json requests: %s, requests_file %s (%v)", onDisk["requests"], onDisk["requests_file"], err)
	}
	mem, err := score.RunDir(dir, score.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(mem.Percentiles, rep.Percentiles) || mem.Qualified != rep.Qualified || !reflect.DeepEqual(mem.Drift, rep.Drift) {
		t.Fatalf("in memory %s\nbounded %s", mem.GomegaString(), rep.GomegaString())
	}
	outs, err := record.ReadOutcomes(filepath.Join(dir, record.OutcomesFile))
	if err != nil {
		t.Fatal(err)
	}
	sent := 0
	for _, o := range outs {
		if o.SentMS != nil && *o.SentMS < rep.WindowMS[1] {
			sent++
		}
	}
	want := float64(sent) / ((rep.WindowMS[1] - rep.WindowMS[0]) / 1000)
	if g := rep.Generator; g == nil || g.DeliveredRPS == nil || *g.DeliveredRPS != want {
		t.Fatalf("generator %+v, want delivered %v", rep.Generator, want)
	}
}

// A run in progress keeps no records in memory: Snapshot scores what is on
// disk so far, counting every request without a record yet as pending;
// once the run has ended, Snapshot is its final report.
func TestSnapshotScoresTheRecordsOnDisk(t *testing.T) {
	srv := simengine.StartTest(t, func(c *simengine.Config) { c.TimeScale = 0.1 })
	w := workloadOf(t, `{"id":"a","prompt":"check the pager","max_tokens":4,"ignore_eos":true}
`)
	live, err := servebench.Start(context.Background(), servebench.RunConfig{
		Workload: w, Arrival: constant(t, 10), Count: 5, Client: clientFor(srv), OutputDir: t.TempDir(),
		LagTolerance: 5 * time.Second,
	})
	if err != nil {
		t.Fatal(err)
	}
	// The five arrivals take 400 ms; this runs right after Start.
	snap, err := live.Snapshot()
	if err != nil {
		t.Fatalf("snapshot of a run in progress: %v", err)
	}
	// Whatever has ended so far, the five requests are offered, and those
	// without a record are pending and unqualified.
	if snap.Offered != 5 || snap.Pending < 0 || snap.Pending > 5 || snap.Qualified > 5-snap.Pending {
		t.Fatalf("snapshot: offered %d, pending %d, qualified %d", snap.Offered, snap.Pending, snap.Qualified)
	}
	res, err := live.Wait()
	if err != nil {
		t.Fatal(err)
	}
	if rep, err := live.Snapshot(); err != nil || rep != res.Report {
		t.Fatalf("snapshot after the end: %v", err)
	}
}
