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
	label                        string
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
	// others are the servebench CLI binaries run beside them, in order.
	others   []clientSummary
	checks   []targetCheck
	failures []string
}

// newPairReport summarizes the phases; cpuTarget says whether the load's
// CPU-per-request target applies; others label the servebench CLI
// binaries that ran beside the two in-process clients, against each of
// which servebench's TTFT error is judged with the lean client's margins
// (no regression).
func newPairReport(phases []phaseResult, cpuTarget bool, others []string) *pairReport {
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
	for _, label := range others {
		o := summarize(phases, label)
		r.others = append(r.others, o)
		r.checks = append(r.checks,
			targetCheck{name: "TTFT error p50 vs " + label, value: r.sb.ttftErrorP50MS, limit: o.ttftErrorP50MS + 1, unit: "ms", applies: true},
			targetCheck{name: "TTFT error p99 vs " + label, value: r.sb.ttftErrorP99, limit: o.ttftErrorP99 + 5, unit: "ms", applies: true})
	}
	return r
}

// summarize takes the medians of one client's phases.
func summarize(phases []phaseResult, client string) clientSummary {
	s := clientSummary{label: client, allValid: true}
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
	for _, o := range r.others {
		if o.phases == 0 {
			return false
		}
	}
	for _, c := range r.checks {
		if c.applies && !c.pass() {
			return false
		}
	}
	return true
}

// write prints the phases, the medians side by side with their difference
// and ratio (servebench and each other binary against the lean client,
// servebench against each binary, each binary against every later one),
// and the targets.
func (r *pairReport) write(w io.Writer) {
	r.writePhases(w)
	fmt.Fprintln(w, "medians over the phases (TTFT error = client TTFT − the server's own first-token time):")
	writeMedians(w, r.lean, r.sb)
	for _, o := range r.others {
		writeMedians(w, r.lean, o)
	}
	for _, o := range r.others {
		writeMedians(w, o, r.sb)
	}
	for i, o := range r.others {
		for _, later := range r.others[i+1:] {
			writeMedians(w, o, later)
		}
	}
	fmt.Fprintln(w, "targets (servebench):")
	width := 18
	for _, c := range r.checks {
		width = max(width, len(c.name))
	}
	for _, c := range r.checks {
		verdict := "ok"
		switch {
		case !c.applies:
			verdict = "(no target for this load)"
		case !c.pass():
			verdict = "MISSED"
		}
		fmt.Fprintf(w, "  %-*s %10.3f %-3s (target <= %.3f) %s\n", width, c.name, c.value, c.unit, c.limit, verdict)
	}
	fmt.Fprintf(w, "  %-*s every phase sent every request within %g ms: %s\n", width, "valid load", lagTolerance, okOr(r.sb.allValid, "MISSED"))
	for _, o := range r.others {
		fmt.Fprintf(w, "  %-*s every phase of %s sent every request within %g ms: %s (shown, not judged)\n", width, "valid load", o.label,
			lagTolerance, okOr(o.allValid, "no"))
	}
	for _, f := range r.failures {
		fmt.Fprintln(w, "  FAILED:", f)
	}
}

// writePhases prints one row per phase, with its notes.
func (r *pairReport) writePhases(w io.Writer) {
	width := 10
	for _, p := range r.phases {
		width = max(width, len(p.Client))
	}
	fmt.Fprintf(w, "%-5s %-*s %6s %6s %9s %9s %8s %8s %8s %8s %8s %7s %5s\n", "phase", width, "client", "sched", "ok",
		"ttft-p50", "ttft-p99", "lag-p50", "lag-p99", "lag-max", "cpu/req", "rss-MB", "in-fl", "valid")
	for i, p := range r.phases {
		fmt.Fprintf(w, "%-5d %-*s %6d %6d %9.2f %9.2f %8.2f %8.2f %8.2f %8.3f %8.1f %7d %5t\n", i+1, width, p.Client,
			p.Scheduled, p.Succeeded, p.TTFTErrorP50MS, p.TTFTErrorP99MS, p.LagP50MS, p.LagP99MS, p.LagMaxMS,
			p.CPUPerRequestMS, p.PeakRSSMB, p.PeakInFlight, p.Valid)
		if p.CPUWithScoringPerRequestMS > 0 {
			fmt.Fprintf(w, "      %-*s with scoring and reports: cpu/req %.3f ms; peak RSS %.1f MB when the last request ended\n", width, "",
				p.CPUWithScoringPerRequestMS, p.PeakRSSSendingMB)
		}
		for _, n := range p.Notes {
			fmt.Fprintf(w, "      %-*s %s\n", width, "", n)
		}
	}
}

// writeMedians prints the medians of base and of against side by side,
// with against's difference from base and its ratio to it.
func writeMedians(w io.Writer, base, against clientSummary) {
	bw, aw := max(10, len(base.label)), max(10, len(against.label))
	fmt.Fprintf(w, "  %-18s %*s %*s %10s %8s\n", "", bw, base.label, aw, against.label, "difference", "ratio")
	row := func(name string, b, a float64) {
		fmt.Fprintf(w, "  %-18s %*.3f %*.3f %+10.3f %8s\n", name, bw, b, aw, a, a-b, ratio(a, b))
	}
	row("TTFT error p50 ms", base.ttftErrorP50MS, against.ttftErrorP50MS)
	row("TTFT error p99 ms", base.ttftErrorP99, against.ttftErrorP99)
	row("lag p99 ms", base.lagP99MS, against.lagP99MS)
	row("CPU/request ms", base.cpuPerRequestMS, against.cpuPerRequestMS)
	row("peak RSS MB", base.peakRSSMB, against.peakRSSMB)
}

// okOr is "ok" when ok holds, else otherwise.
func okOr(ok bool, otherwise string) string {
	if ok {
		return "ok"
	}
	return otherwise
}

// ratio formats a/b, or "-" when b is not positive.
func ratio(a, b float64) string {
	if b <= 0 {
		return "-"
	}
	return fmt.Sprintf("%.2fx", a/b)
}
