package render

import (
	"bufio"
	"fmt"
	"io"
	"strings"

	"github.com/servebench/servebench/internal/numfmt"
	"github.com/servebench/servebench/internal/oneline"
	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/servebench/report"
	"github.com/servebench/servebench/servebench/schedule"
)

// SummaryNotes is what a summary says beside its report: the verdict the
// command reached and where the full report is.
type SummaryNotes struct {
	// Verdict is the verdict section, one line each: "pass", the gate
	// that failed, the knee of a sweep.
	Verdict []string
	// Full names where the full report is, one line each, e.g.
	// "out/report.txt (also report.json, report.html)".
	Full []string
}

// summaryReasonLimit is how many reasons a run is not valid the summary
// lists; the full report has every one.
const summaryReasonLimit = 3

// summaryLabel is the width of a summary line's label column.
const summaryLabel = 12

// Summary writes the report on one screen, fewer than 25 lines of at most
// about 100 columns: the load point, whether it is evidence, attainment
// with its Wilson lower bound, the failures by status with the most
// common message, TTFT, TPOT, ITL and E2E at p50 and p99 with
// their populations' sizes, throughput, then the notes' verdict and where
// the full report (Text) is. When no event was proven to hold one token,
// the ITL line gives the gaps between content events in its place,
// labelled so. A nil report writes only the notes (a sweep where no
// point has a run).
func Summary(w io.Writer, r *report.Report, n SummaryNotes) error {
	bw := bufio.NewWriter(w)
	line := func(label, format string, args ...any) {
		if label != "" {
			label += ":"
		}
		fmt.Fprintf(bw, "%-*s %s\n", summaryLabel, label, fmt.Sprintf(format, args...))
	}
	if r != nil {
		writeRunSummary(bw, line, r)
	}
	labelledLines(line, "verdict", n.Verdict)
	labelledLines(line, "full report", n.Full)
	return bw.Flush()
}

// writeRunSummary writes the summary's lines about the run itself.
func writeRunSummary(bw *bufio.Writer, line func(label, format string, args ...any), r *report.Report) {
	line("load", "%s", LoadPoint(r))
	writeValiditySummary(line, r)
	line("attainment", "%s (%d of %d offered); Wilson lower bound %s at %s confidence",
		numfmt.OptPercent(r.Attainment), r.Qualified, r.Offered, numfmt.OptPercent(r.WilsonLower), numfmt.Level(r.WilsonConfidence))
	if s := r.Sessions; s != nil {
		line("sessions", "%s (%d of %d; %d truncated); Wilson lower bound %s",
			numfmt.OptPercent(s.Attainment), s.Qualified, s.Judged(), s.Truncated, numfmt.OptPercent(s.WilsonLower))
	}
	writeFailureSummary(line, r)
	line("SLO", "%s", sloSummaryText(r.SLO))
	writeLatencySummary(bw, r)
	line("throughput", "%s", throughputSummaryText(r))
	if s := r.SteadyState; s != nil {
		line("steady", "%s", steadyStateSummary(s))
	}
}

// labelledLines writes lines under one label, beside the first.
func labelledLines(line func(label, format string, args ...any), label string, lines []string) {
	for i, l := range lines {
		if i > 0 {
			label = ""
		}
		line(label, "%s", l)
	}
}

// LoadPoint is a run's load point in one line: the arrival process with
// only the parameters it uses, the offered requests, the window and the
// endpoint, e.g. "poisson at 4 req/s, 200 offered over a 50 s window
// (chat)".
func LoadPoint(r *report.Report) string {
	windowS := numfmt.Compact((r.WindowMS[1] - r.WindowMS[0]) / 1000)
	s := fmt.Sprintf("%d offered over a %s s window", r.Offered, windowS)
	if r.Experiment != nil {
		s = arrivalText(r.Experiment.Arrival) + ", " + s
	}
	if r.Endpoint != "" {
		s += " (" + string(r.Endpoint) + ")"
	}
	return s
}

// arrivalText names an arrival process and the parameters it uses.
func arrivalText(a schedule.ArrivalSpec) string {
	switch a.Process {
	case schedule.ProcessClosed:
		s := fmt.Sprintf("closed loop, %s", numfmt.Count(a.Users, "user", "users"))
		if a.ThinkTimeMS > 0 {
			s += fmt.Sprintf(", think time %s ms", numfmt.Compact(a.ThinkTimeMS))
		}
		return s
	case schedule.ProcessReplay:
		if a.TimeScale > 0 && a.TimeScale != 1 {
			return fmt.Sprintf("replay at time scale %s", numfmt.Compact(a.TimeScale))
		}
		return "replay"
	}
	s := fmt.Sprintf("%s at %s req/s", a.Process, numfmt.Compact(a.RateRPS))
	switch a.Process {
	case schedule.ProcessGamma:
		s += ", burstiness " + numfmt.Compact(a.Burstiness)
	case schedule.ProcessBurst:
		s += fmt.Sprintf(", burst size %d", a.BurstSize)
	}
	return s
}

// writeValiditySummary says whether the run is evidence for its offered
// rate, and if not the first reasons why.
func writeValiditySummary(line func(label, format string, args ...any), r *report.Report) {
	tolerance := numfmt.Compact(r.ScheduleLagToleranceMS)
	if r.Valid {
		line("valid", "yes: every request sent within %s ms of its schedule (max lag %s ms)", tolerance, numfmt.OptCompact(r.MaxScheduleLagMS))
		return
	}
	line("valid", "NO: not evidence for its offered rate (%d of %d late by more than %s ms)", r.LateCount, r.Offered, tolerance)
	for i, why := range r.InvalidReasons {
		if i == summaryReasonLimit {
			line("", "- and %d more (in the full report)", len(r.InvalidReasons)-summaryReasonLimit)
			break
		}
		line("", "- %s", why)
	}
}

// summaryMessageLimit is how many bytes of the most common failure
// message the summary keeps, so that its line fits the screen.
const summaryMessageLimit = 64

// writeFailureSummary counts the offered requests that did not succeed by
// status, with the most common failure message; nothing when every one
// succeeded.
func writeFailureSummary(line func(label, format string, args ...any), r *report.Report) {
	var parts []string
	failed := 0
	for _, s := range record.Statuses() {
		if n := r.StatusCounts[s]; s != record.StatusSuccess && n > 0 {
			parts = append(parts, fmt.Sprintf("%s %d", s, n))
			failed += n
		}
	}
	if failed == 0 {
		return
	}
	line("failed", "%d of %d offered: %s", failed, r.Offered, strings.Join(parts, ", "))
	if m, err := commonErrorMessages(r); err == nil && m != nil && len(m.Top) > 0 {
		top := m.Top[0]
		line("", "most common: %d × %s", top.Count, oneline.ShortenTo(top.Message, summaryMessageLimit))
	}
}

// sloSummaryText writes the declared bounds in a few words.
func sloSummaryText(s report.SLO) string {
	var parts []string
	if s.TTFT > 0 {
		from := ""
		if s.TTFTFromScheduled {
			from = " (from schedule)"
		}
		parts = append(parts, fmt.Sprintf("ttft <= %s%s", numfmt.DurationMS(s.TTFT), from))
	}
	if s.TPOT > 0 {
		parts = append(parts, "tpot <= "+numfmt.DurationMS(s.TPOT))
	}
	if s.E2E > 0 {
		parts = append(parts, "e2e <= "+numfmt.DurationMS(s.E2E))
	}
	if len(parts) == 0 {
		return "none declared (a success qualifies)"
	}
	return strings.Join(parts, ", ")
}

// summaryMetrics are the latency rows of a summary, in order.
var summaryMetrics = []struct {
	metric record.Metric
	name   string
}{
	{record.MetricTTFT, "TTFT"}, {record.MetricTPOT, "TPOT"}, {record.MetricITL, "ITL"}, {record.MetricE2E, "E2E"},
}

// writeLatencySummary writes p50 and p99 of TTFT, TPOT, ITL and E2E beside
// their populations' sizes, the chunk gaps in ITL's place when no token
// gap was proven, and in one line the metrics the endpoint leaves
// undefined.
func writeLatencySummary(bw *bufio.Writer, r *report.Report) {
	fmt.Fprintf(bw, "%-*s %10s %10s %8s\n", summaryLabel, "latency ms", "p50", "p99", "n")
	var undefined []string
	for _, m := range summaryMetrics {
		d, ok := r.Percentiles[m.metric]
		switch {
		case !ok:
			undefined = append(undefined, m.name)
		case m.metric == record.MetricITL && d.N == 0:
			fmt.Fprintf(bw, "  %-*s %s\n", summaryLabel-2, m.name, chunkGapText(r))
		default:
			fmt.Fprintf(bw, "  %-*s %10s %10s %8d\n", summaryLabel-2, m.name, numfmt.OptCompact(d.P50), numfmt.OptCompact(d.P99), d.N)
		}
	}
	if len(undefined) > 0 {
		why := "not in this report"
		if api, ok := record.APIOf(r.Endpoint); ok && !api.FirstToken {
			why = fmt.Sprintf("the %s API has no first token", r.Endpoint)
		}
		fmt.Fprintf(bw, "  %-*s %s\n", summaryLabel-2, strings.Join(undefined, ", "), "undefined: "+why)
	}
}

// chunkGapText is the ITL row when no event was proven to hold one token:
// the gaps between content events, which may hold several tokens each.
func chunkGapText(r *report.Report) string {
	s := "n/a (token gaps not proven)"
	if g, ok := r.Percentiles[record.MetricChunkGap]; ok && g.N > 0 {
		s += fmt.Sprintf("; chunk gap p50 %s p99 %s (n %d)", numfmt.OptMS(g.P50), numfmt.OptMS(g.P99), g.N)
	}
	return s
}

// throughputSummaryText is the endpoint's declared rates over the
// horizon, or the successful request rate when the endpoint is not known.
func throughputSummaryText(r *report.Report) string {
	if len(r.Throughput) == 0 {
		return numfmt.OptFixed(r.SuccessfulRPS, 3) + " successful req/s"
	}
	parts := make([]string, 0, len(r.Throughput))
	for _, tr := range r.Throughput {
		parts = append(parts, numfmt.Compact(tr.PerSecond)+" "+strings.ReplaceAll(string(tr.Unit), "_", " "))
	}
	return strings.Join(parts, ", ")
}
