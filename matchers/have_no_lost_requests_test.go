package matchers_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/servebench/servebench/fixtures/simengine"
	"github.com/servebench/servebench/matchers"
	"github.com/servebench/servebench/servebench"
	"github.com/servebench/servebench/servebench/openai"
	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/servebench/report"
	"github.com/servebench/servebench/servebench/schedule"
)

var _ = Describe("HaveNoLostRequests", func() {
	It("passes when every offered request has an entry with a terminal status, not_sent included", func() {
		Expect(sixRequests()).To(matchers.HaveNoLostRequests())
		Expect(undelivered()).To(matchers.HaveNoLostRequests())
		Expect(matchers.HaveNoLostRequests().NegatedFailureMessage(undelivered())).To(Equal(
			"Expected some of the 6 scheduled requests to lack a terminal outcome, but every one has one (terminal statuses: success 5, not_sent 1)"))
	})

	It("fails on a missing entry, a duplicate and an empty or unknown status", func() {
		r := sixRequests()
		r.Requests = r.Requests[:5]         // r06 dropped
		r.Requests[1].Status = ""           // r02 without status
		r.Requests[2].Status = "finished"   // r03 unknown status
		r.Requests[4].ID = r.Requests[3].ID // r05 relabelled as r04
		m := matchers.HaveNoLostRequests()
		Expect(r).NotTo(m)
		Expect(m.FailureMessage(r)).To(Equal(`Expected every one of the 6 scheduled requests to have a terminal outcome, but found 4 problems:
    r02: no terminal status
    r03: unknown terminal status "finished"
    r04: listed more than once in the report
    the report has 5 request entries for 6 offered requests
terminal statuses: success 5, timeout 1`))
	})

	It("checks a run's schedule and outcome records too", func() {
		report := twentyRuns("")
		sched := &schedule.Schedule{WindowMS: [2]float64{0, 2000}}
		var outcomes []record.Outcome
		for _, rs := range report.Requests {
			sched.Entries = append(sched.Entries, schedule.Entry{ID: rs.ID, ScheduledMS: rs.ScheduledMS})
			outcomes = append(outcomes, record.Outcome{ID: rs.ID, Attempt: 1, Status: rs.Status})
		}
		run := &servebench.RunResult{Schedule: sched, Dir: GinkgoT().TempDir(), Report: report}
		writeOutcomeFile(run.Dir, outcomes)
		Expect(run).To(matchers.HaveNoLostRequests())
		Expect(run).To(matchers.HaveAttainmentAtLeast(1))

		// A record without a status cannot be read back: the matcher says
		// where, rather than judge the run.
		writeOutcomeFile(run.Dir, append([]record.Outcome{{ID: "r01", Attempt: 2}}, outcomes...))
		_, err := matchers.HaveNoLostRequests().Match(run)
		Expect(err).To(MatchError(ContainSubstring(`outcomes.jsonl:1: status: unknown status ""`)))

		writeOutcomeFile(run.Dir, outcomes[1:19]) // r01 and r20 lost
		run.Schedule.Entries = append(run.Schedule.Entries, schedule.Entry{ID: "r21", ScheduledMS: 1999})
		Expect(matchers.HaveNoLostRequests().FailureMessage(*run)).To(Equal(`Expected every one of the 21 scheduled requests to have a terminal outcome, but found 4 problems:
    r01: no outcome record
    r20: no outcome record
    r21: no outcome record
    r21: missing from the report
terminal statuses: success 20`))
	})

	It("checks a run's request entries in its requests.jsonl", func() {
		cfg := simengine.DefaultConfig()
		cfg.TimeScale = 0.1
		srv, err := simengine.Start(context.Background(), cfg)
		Expect(err).NotTo(HaveOccurred())
		DeferCleanup(srv.Close)
		w, err := schedule.ParseWorkload("bounded.jsonl", []byte(`{"id":"q","prompt":"is it up","max_tokens":4,"ignore_eos":true}`))
		Expect(err).NotTo(HaveOccurred())
		a, err := schedule.NewArrival(schedule.ArrivalSpec{Process: "constant", RateRPS: 40})
		Expect(err).NotTo(HaveOccurred())
		run, err := servebench.Run(context.Background(), servebench.RunConfig{
			Workload: w, Arrival: a, Count: 6, OutputDir: GinkgoT().TempDir(), LagTolerance: time.Second,
			Client: &openai.Client{BaseURL: srv.BaseURL(), Model: cfg.Model, Endpoint: record.EndpointCompletions,
				TotalTimeout: 10 * time.Second},
		})
		Expect(err).NotTo(HaveOccurred())
		Expect(run.Report.Requests).To(BeEmpty())
		Expect(run.Report.RequestsFile).To(Equal(record.RequestsFile))
		Expect(run).To(matchers.HaveNoLostRequests())

		// The run's report knows its directory too; one decoded from JSON
		// alone does not, and says so.
		Expect(run.Report).To(matchers.HaveNoLostRequests())
		var decoded report.Report
		b, err := json.Marshal(run.Report)
		Expect(err).NotTo(HaveOccurred())
		Expect(json.Unmarshal(b, &decoded)).To(Succeed())
		_, err = matchers.HaveNoLostRequests().Match(&decoded)
		Expect(err).To(MatchError(ContainSubstring("the report keeps them in requests.jsonl of its run directory, and the directory is not known")))

		// Lose the second entry, repeat the fourth, and mark the sixth as
		// scored without a record.
		path := filepath.Join(run.Dir, record.RequestsFile)
		data, err := os.ReadFile(path)
		Expect(err).NotTo(HaveOccurred())
		lines := strings.SplitAfter(strings.TrimSuffix(string(data), "\n"), "\n")
		Expect(lines).To(HaveLen(6))
		var last report.RequestScore
		Expect(json.Unmarshal([]byte(lines[5]), &last)).To(Succeed())
		lostID := last.ID
		last.Status, last.Error = record.StatusNotSent, "no outcome record: the request never reached a terminal record (interrupted run?)"
		lastLine, err := json.Marshal(&last)
		Expect(err).NotTo(HaveOccurred())
		repeated := strings.TrimSpace(lines[3])
		var dup report.RequestScore
		Expect(json.Unmarshal([]byte(repeated), &dup)).To(Succeed())
		edited := lines[0] + lines[2] + lines[3] + lines[3] + lines[4] + string(lastLine) + "\n"
		Expect(os.WriteFile(path, []byte(edited), 0o644)).To(Succeed())
		m := matchers.HaveNoLostRequests()
		Expect(run).NotTo(m)
		Expect(m.FailureMessage(run)).To(Equal(fmt.Sprintf(`Expected every one of the 6 scheduled requests to have a terminal outcome, but found 2 problems:
    %s: listed more than once in %s
    %s: no outcome record
terminal statuses: success 6`, dup.ID, path, lostID)))

		// A file one entry short of the offered count.
		Expect(os.WriteFile(path, []byte(lines[0]+lines[2]+lines[3]+lines[4]+lines[5]), 0o644)).To(Succeed())
		Expect(m.FailureMessage(run)).To(ContainSubstring(fmt.Sprintf("%s has 5 request entries for 6 offered requests", path)))
	})

	It("rejects a run without a report", func() {
		_, err := matchers.HaveNoLostRequests().Match(&servebench.RunResult{})
		Expect(err).To(MatchError(ContainSubstring("HaveNoLostRequests expects a report, got a nil one")))
	})

	It("rejects a report with no offered requests", func() {
		_, err := matchers.HaveNoLostRequests().Match(&report.Report{Requests: []report.RequestScore{{ID: "x"}}})
		Expect(err).To(MatchError(ContainSubstring("HaveNoLostRequests cannot judge a report with no offered requests")))
	})
})

// writeOutcomeFile writes a run directory's outcomes.jsonl as the runner
// does, one JSON record per line.
func writeOutcomeFile(dir string, outcomes []record.Outcome) {
	var b []byte
	for i := range outcomes {
		line, err := json.Marshal(&outcomes[i])
		Expect(err).NotTo(HaveOccurred())
		b = append(append(b, line...), '\n')
	}
	Expect(os.WriteFile(filepath.Join(dir, record.OutcomesFile), b, 0o644)).To(Succeed())
}
