package main

import (
	"fmt"
	"io"
	"slices"

	"github.com/servebench/servebench/servebench/stats"
)

// clientSummary is one client's figures over the phases it ran: the
// median of each phase's figure.
type clientSummary struct {
	phases                       int
	ttftErrorP50MS, ttftErrorP99 float64
	lagP99MS                     float64
	cpuPerRequestMS              float64
	peakRSSMB                    float64
	allValid                     bool
}

// targetCheck is one target of the paired mode, judged on the medians.
type targetCheck struct {
	name         string
	value, limit float64
	unit         string
	// applies is false for a figure the load has no target for: it is
	// shown, never judged.
	applies bool
}

// pass says whether the check is met.
func (t targetCheck) pass() bool { return t.value <= t.limit }

// pairReport is the outcome of a paired run.
type pairReport struct {
	phases   []phaseResult
	lean, sb clientSummary
	checks   []targetCheck
	failures []string
}

// newPairReport summarizes the phases; cpuTarget says whether the load's
// CPU-per-request target applies.
func newPairReport(phases []phaseResult, cpuTarget bool) *pairReport {
	r := &pairReport{phases: phases, lean: summarize(phases, "lean"), sb: summarize(phases, "servebench")}
	for i, p := range phases {
		if p.Succeeded < p.Scheduled || p.Joined < p.Succeeded {
			r.failures = append(r.failures, fmt.Sprintf("phase %d (%s): %d scheduled, %d succeeded, %d joined with the server's first-token time",
				i+1, p.Client, p.Scheduled, p.Succeeded, p.Joined))
		}
	}
	r.checks = []targetCheck{
		{name: "TTFT error p50", value: r.sb.ttftErrorP50MS, limit: r.lean.ttftErrorP50MS + 1, unit: "ms", applies: true},
		{name: "TTFT error p99", value: r.sb.ttftErrorP99, limit: r.lean.ttftErrorP99 + 5, unit: "ms", applies: true},
		{name: "schedule lag p99", value: r.sb.lagP99MS, limit: 5, unit: "ms", applies: true},
		{name: "peak RSS", value: r.sb.peakRSSMB, limit: r.lean.peakRSSMB + 20, unit: "MB", applies: true},
		{name: "CPU per request", value: r.sb.cpuPerRequestMS, limit: 1.1 * r.lean.cpuPerRequestMS, unit: "ms", applies: cpuTarget},
	}
	return r
}

// summarize takes the medians of one client's phases.
func summarize(phases []phaseResult, client string) clientSummary {
	s := clientSummary{allValid: true}
	var p50, p99, lag, cpu, rss []float64
	for _, p := range phases {
		if p.Client != client {
			continue
		}
		s.phases++
		s.allValid = s.allValid && p.Valid
		p50, p99 = append(p50, p.TTFTErrorP50MS), append(p99, p.TTFTErrorP99MS)
		lag, cpu, rss = append(lag, p.LagP99MS), append(cpu, p.CPUPerRequestMS), append(rss, p.PeakRSSMB)
	}
	s.ttftErrorP50MS, s.ttftErrorP99, s.lagP99MS = median(p50), median(p99), median(lag)
	s.cpuPerRequestMS, s.peakRSSMB = median(cpu), median(rss)
	return s
}

// median is the middle value (the mean of the two middle ones for an even
// count); 0 for none.
func median(v []float64) float64 {
	m, _ := stats.Percentile(slices.Sorted(slices.Values(v)), 50, stats.Linear)
	return m
}

// ok says whether every applicable target was met, every servebench phase
// was valid load and no request failed.
func (r *pairReport) ok() bool {
	if len(r.failures) > 0 || !r.sb.allValid || r.sb.phases == 0 || r.lean.phases == 0 {
		return false
	}
	for _, c := range r.checks {
		if c.applies && !c.pass() {
			return false
		}
	}
	return true
}

// write prints the phases, the medians side by side with their difference
// and ratio, and the targets.
func (r *pairReport) write(w io.Writer) {
	fmt.Fprintf(w, "%-5s %-10s %6s %6s %9s %9s %8s %8s %8s %8s %8s %7s %5s\n", "phase", "client", "sched", "ok",
		"ttft-p50", "ttft-p99", "lag-p50", "lag-p99", "lag-max", "cpu/req", "rss-MB", "in-fl", "valid")
	for i, p := range r.phases {
		fmt.Fprintf(w, "%-5d %-10s %6d %6d %9.2f %9.2f %8.2f %8.2f %8.2f %8.3f %8.1f %7d %5t\n", i+1, p.Client,
			p.Scheduled, p.Succeeded, p.TTFTErrorP50MS, p.TTFTErrorP99MS, p.LagP50MS, p.LagP99MS, p.LagMaxMS,
			p.CPUPerRequestMS, p.PeakRSSMB, p.PeakInFlight, p.Valid)
		if p.CPUWithScoringPerRequestMS > 0 {
			fmt.Fprintf(w, "      %-10s with scoring and reports: cpu/req %.3f ms; peak RSS %.1f MB when the last request ended\n", "",
				p.CPUWithScoringPerRequestMS, p.PeakRSSSendingMB)
		}
		for _, n := range p.Notes {
			fmt.Fprintf(w, "      %-10s %s\n", "", n)
		}
	}
	fmt.Fprintln(w, "medians over the phases (TTFT error = client TTFT − the server's own first-token time):")
	fmt.Fprintf(w, "  %-18s %10s %10s %10s %8s\n", "", "lean", "servebench", "difference", "ratio")
	row := func(name string, lean, sb float64) {
		fmt.Fprintf(w, "  %-18s %10.3f %10.3f %+10.3f %8s\n", name, lean, sb, sb-lean, ratio(sb, lean))
	}
	row("TTFT error p50 ms", r.lean.ttftErrorP50MS, r.sb.ttftErrorP50MS)
	row("TTFT error p99 ms", r.lean.ttftErrorP99, r.sb.ttftErrorP99)
	row("lag p99 ms", r.lean.lagP99MS, r.sb.lagP99MS)
	row("CPU/request ms", r.lean.cpuPerRequestMS, r.sb.cpuPerRequestMS)
	row("peak RSS MB", r.lean.peakRSSMB, r.sb.peakRSSMB)
	fmt.Fprintln(w, "targets (servebench):")
	for _, c := range r.checks {
		verdict := "ok"
		switch {
		case !c.applies:
			verdict = "(no target for this load)"
		case !c.pass():
			verdict = "MISSED"
		}
		fmt.Fprintf(w, "  %-18s %10.3f %-3s (target <= %.3f) %s\n", c.name, c.value, c.unit, c.limit, verdict)
	}
	valid := "ok"
	if !r.sb.allValid {
		valid = "MISSED"
	}
	fmt.Fprintf(w, "  %-18s every phase sent every request within %g ms: %s\n", "valid load", lagTolerance, valid)
	for _, f := range r.failures {
		fmt.Fprintln(w, "  FAILED:", f)
	}
}

// ratio formats a/b, or "-" when b is not positive.
func ratio(a, b float64) string {
	if b <= 0 {
		return "-"
	}
	return fmt.Sprintf("%.2fx", a/b)
}
