package render

import (
	"fmt"

	"github.com/servebench/servebench/internal/numfmt"
	"github.com/servebench/servebench/servebench/report"
)

// sessionsText states the session attainment with its counts and Wilson
// bound: "95.0% (190 of 200 judged; 205 offered, 5 truncated, 200
// completed); Wilson lower bound 91.8% at 95% confidence".
func sessionsText(s *report.Sessions, confidence float64) string {
	return fmt.Sprintf("%s (%d of %d judged; %d offered, %d truncated, %d completed); Wilson lower bound %s at %s confidence",
		numfmt.OptPercent(s.Attainment), s.Qualified, s.Judged(), s.Offered, s.Truncated, s.Completed,
		numfmt.OptPercent(s.WilsonLower), numfmt.Level(confidence))
}

// steadyStateText states the steady window, its in-flight floor and its
// figures: "[1000, 5000) ms (4 s) with >= 10 in flight (peak 10): 10
// requests, 2.5 req/s, 12.5 output tok/s; TTFT p50 500 p99 1000 ms, …".
func steadyStateText(s *report.SteadyState) string {
	return fmt.Sprintf("[%s, %s) ms (%s s) with >= %d in flight (peak %d): %d requests, %s req/s, %s output tok/s; %s",
		numfmt.Compact(s.StartMS), numfmt.Compact(s.EndMS), numfmt.Compact(s.DurationMS()/1000), s.InFlightFloor, s.PeakInFlight,
		s.Requests, numfmt.OptFixed(s.RequestsPerSecond, 3), numfmt.OptFixed(s.OutputTokensPerSecond, 3), steadyLatencyText(s))
}

// steadyLatencyText gives the window's p50 and p99 of TTFT, TPOT and E2E.
func steadyLatencyText(s *report.SteadyState) string {
	l := func(name string, v report.SteadyLatency) string {
		return fmt.Sprintf("%s p50 %s p99 %s ms", name, numfmt.OptCompact(v.P50), numfmt.OptCompact(v.P99))
	}
	return l("TTFT", s.TTFT) + ", " + l("TPOT", s.TPOT) + ", " + l("E2E", s.E2E)
}

// steadyStateSummary is the one-screen summary's shorter line: the window,
// its floor of the peak in flight, its request rate and p99s, and SHORT
// when flagged.
func steadyStateSummary(s *report.SteadyState) string {
	text := fmt.Sprintf("[%s, %s) ms, >= %d of %d in flight, %s req/s, p99 TTFT %s E2E %s ms",
		numfmt.Compact(s.StartMS), numfmt.Compact(s.EndMS), s.InFlightFloor, s.PeakInFlight,
		numfmt.OptFixed(s.RequestsPerSecond, 3), numfmt.OptCompact(s.TTFT.P99), numfmt.OptCompact(s.E2E.P99))
	if s.Short {
		text += "; SHORT"
	}
	return text
}
