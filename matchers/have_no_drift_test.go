package matchers_test

import (
	"math"
	"strconv"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/servebench/servebench/matchers"
	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/servebench/report"
	"github.com/servebench/servebench/servebench/schedule"
	"github.com/servebench/servebench/servebench/score"
)

// driftingRun scores 160 requests, one every 50 ms over an 8 s window, each
// with TTFT 100 ms + step·k in interval k of 1 s: with step 10 the p99
// grows 10 ms a second, 70% over the 7 s between the first and last
// interval midpoints; with step 0 it is level.
func driftingRun(step float64) *report.Report {
	s := &schedule.Schedule{Schema: schedule.Schema, Mode: "open", WindowMS: [2]float64{0, 8000}, ScheduleLagToleranceMS: 20}
	var outs []record.Outcome
	for i := range 160 {
		id := "d" + strconv.Itoa(i)
		a := float64(i * 50)
		s.Entries = append(s.Entries, schedule.Entry{ID: id, Row: i, ScheduledMS: a})
		f := a + 100 + step*math.Floor(a/1000)
		two := 2
		outs = append(outs, record.Outcome{ID: id, Attempt: 1, Status: record.StatusSuccess, ScheduledMS: a, SentMS: &a,
			ContentMS: []float64{f, f + 20}, TerminalMS: f + 30, OutputTokens: &two})
	}
	r, err := score.Outcomes(s, outs, score.Options{DriftInterval: time.Second})
	Expect(err).NotTo(HaveOccurred())
	return r
}

var _ = Describe("HaveNoDrift", func() {
	It("passes a level run and fails a run whose p99 TTFT grew 70%", func() {
		Expect(driftingRun(0)).To(matchers.HaveNoDrift(0.2))
		Expect(driftingRun(10)).NotTo(matchers.HaveNoDrift(0.2))
		// 70% growth is within a 75% allowance.
		Expect(driftingRun(10)).To(matchers.HaveNoDrift(0.75))
	})

	It("says which p99 grew, by how much, and shows the series", func() {
		msg := matchers.HaveNoDrift(0.2).FailureMessage(driftingRun(10))
		Expect(msg).To(ContainSubstring("Expected no p99 to grow more than 20.0% over the run, but:"))
		Expect(msg).To(ContainSubstring("ttft_p99_ms changed +70.0% over 7 s"))
		Expect(msg).To(ContainSubstring("p99 TTFT per 1000 ms interval: 100 110 120 130 140 150 160 170"))
	})

	It("refuses a report without a judged drift analysis and a bad limit", func() {
		short := sixRequests()
		_, err := matchers.HaveNoDrift(0.2).Match(short)
		Expect(err).To(MatchError(ContainSubstring("HaveNoDrift")))
		_, err = matchers.HaveNoDrift(-1).Match(driftingRun(0))
		Expect(err).To(MatchError(ContainSubstring("growth limit")))
	})
})
