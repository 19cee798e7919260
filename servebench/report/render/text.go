package render

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"strings"

	"github.com/servebench/servebench/internal/numfmt"
	"github.com/servebench/servebench/internal/safefile"
	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/servebench/report"
)

// Text writes a human summary of the report in the spirit of vllm
// bench serve's result table, but with every rate beside its numerator and
// denominator, failures counted by status and by failed criterion, the load
// delivery verdict, and each latency distribution beside its population.
func Text(w io.Writer, r *report.Report) error {
	bw := bufio.NewWriter(w)
	line := func(label, format string, args ...any) {
		fmt.Fprintf(bw, "%-36s %s\n", label+":", fmt.Sprintf(format, args...))
	}
	rule := func(title string) {
		pad := max(0, 60-len(title)-2)
		fmt.Fprintf(bw, "%s %s %s\n", strings.Repeat("-", pad/2), title, strings.Repeat("-", pad-pad/2))
	}
	windowS := (r.WindowMS[1] - r.WindowMS[0]) / 1000
	horizonS := r.HorizonMS / 1000

	fmt.Fprintln(bw, strings.Repeat("=", 22)+" servebench report "+strings.Repeat("=", 21))
	line("Arrival window", "[%s, %s) ms (%s s)", numfmt.Compact(r.WindowMS[0]), numfmt.Compact(r.WindowMS[1]), numfmt.Compact(windowS))
	line("Horizon", "%s ms (window start to the later of window end and last terminal outcome)", numfmt.Compact(r.HorizonMS))
	line("Offered requests", "%d (%s req/s = %d / %s s window)", r.Offered, numfmt.OptFixed(r.OfferedRPS, 3), r.Offered, numfmt.Compact(windowS))
	line("Protocol successes", "%d of %d offered (%s)", r.ProtocolSuccesses, r.Offered, numfmt.OptPercent(fractionOf(r.ProtocolSuccesses, r.Offered)))
	line("Qualified requests", "%d of %d offered", r.Qualified, r.Offered)
	line("SLO attainment", "%s (%d / %d; %s)", numfmt.OptPercent(r.Attainment), r.Qualified, r.Offered, r.AttainmentKind)
	line(fmt.Sprintf("Wilson lower bound (%s, 1-sided)", numfmt.Level(r.WilsonConfidence)), "%s", numfmt.OptPercent(r.WilsonLower))
	line("Successful request rate", "%s req/s (%d / %s s horizon)", numfmt.OptFixed(r.SuccessfulRPS, 3), r.ProtocolSuccesses, numfmt.Compact(horizonS))
	line("Qualified request rate", "%s req/s (%d / %s s horizon)", numfmt.OptFixed(r.QualifiedRPS, 3), r.Qualified, numfmt.Compact(horizonS))
	writeThroughputText(line, r)
	if s := r.Sessions; s != nil {
		line("Session attainment", "%s", sessionsText(s, r.WilsonConfidence))
	}
	if s := r.SteadyState; s != nil {
		line("Steady state", "%s", steadyStateText(s))
		if s.Short {
			line("  SHORT", "%s", s.ShortReason)
		}
	}
	writePhasesText(line, r)
	if r.PrefixCache != nil {
		line("Prefix cache hit rate", "%s", prefixCacheText(r.PrefixCache))
		if s := expectedReuseText(r.PrefixCache); s != "" {
			line("Expected prefix reuse", "%s", s)
		}
	}
	if r.CacheState != "" {
		line("Prefix cache state", "%s", cacheStateText(r.EngineState))
	}
	if sd := r.SpeculativeDecoding; sd != nil {
		line("Speculative decoding", "%s", speculativeText(sd))
	}
	if len(r.EngineStarts) > 0 {
		line("Engine starts", "%s", engineStartsText(r.EngineStarts))
	}
	if r.CapacityEstimateRPS != nil {
		line("SLO capacity", "%s req/s", numfmt.OptFixed(r.CapacityEstimateRPS, 3))
	} else {
		line("SLO capacity", "not estimated: one run is not a capacity (sweep offered rates)")
	}
	line("SLO", "%s", describeSLO(r.SLO))
	line("Quality judgments", "%d judged (%d pass, %d fail), %d unscored, of %d offered",
		r.Quality.Judged, r.Quality.Passed, r.Quality.Failed, r.Quality.Unscored, r.Offered)

	rule(fmt.Sprintf("Outcomes (of %d offered)", r.Offered))
	for _, s := range record.Statuses() {
		line(string(s), "%d", r.StatusCounts[s])
	}
	writeErrorMessagesText(line, rule, r)
	rule("Unqualified requests by failed criterion")
	for _, reason := range report.Reasons() {
		line(string(reason), "%s", reasonCountText(r, reason))
	}
	writeFirstUnqualifiedText(bw, rule, r)

	rule("Load delivery")
	if r.Valid {
		line("Valid", "yes: every offered request was sent within %s ms of its schedule", numfmt.Compact(r.ScheduleLagToleranceMS))
	} else {
		line("Valid", "NO: the load was not delivered")
		for _, reason := range r.InvalidReasons {
			line("  reason", "%s", reason)
		}
	}
	line("Max schedule lag", "%s ms (tolerance %s ms; %d of %d late)", numfmt.OptCompact(r.MaxScheduleLagMS), numfmt.Compact(r.ScheduleLagToleranceMS), r.LateCount, r.Offered)
	if b := r.Backlog; b != nil {
		line("Outstanding requests", "%s", backlogText(b))
	}
	if f := r.Fluidity; f != nil {
		line("Fluidity index", "%s (%d of %d deadlines missed; first token %s ms, cadence %s ms)",
			numfmt.OptFixed(f.Index, 3), f.MissedDeadlines, f.Deadlines, numfmt.Compact(f.FirstTokenDeadlineMS), numfmt.Compact(f.CadenceMS))
	}
	if g := r.Generator; g != nil {
		line("Generator", "%s loop, %d of %d scheduled sent, saturated: %v", g.Mode, g.Sent, g.Scheduled, g.Saturated)
		for _, n := range g.Notes {
			line("  note", "%s", n)
		}
		writeHistoryText(line, g)
		writeShardsText(line, g)
	}

	rule(fmt.Sprintf("Latency (ms, %s percentiles)", r.PercentileMethod))
	fmt.Fprintf(bw, "%-24s %8s %10s %10s %10s %10s %10s %10s\n", "metric", "n", "mean", "p50", "p90", "p95", "p99", "max")
	for _, m := range reportMetricsIn(r) {
		d := r.Percentiles[m]
		fmt.Fprintf(bw, "%-24s %8d %10s %10s %10s %10s %10s %10s\n", m, d.N,
			numfmt.OptCompact(d.Mean), numfmt.OptCompact(d.P50), numfmt.OptCompact(d.P90), numfmt.OptCompact(d.P95), numfmt.OptCompact(d.P99), numfmt.OptCompact(d.Max))
	}
	rule("Populations")
	for _, m := range reportMetricsIn(r) {
		fmt.Fprintf(bw, "%-24s %s\n", m, r.Percentiles[m].Population)
	}
	writeBreakdownText(bw, rule, r.Breakdown)
	writeAdapterLoadsText(bw, rule, r.AdapterLoads)
	writeEngineMetricsText(bw, rule, r.EngineMetrics)
	writeGPUTelemetryText(bw, rule, r.GPUTelemetry)
	if r.Inputs != (report.Inputs{}) {
		rule("Inputs (SHA-256)")
		for _, in := range []struct{ name, sum string }{
			{"trace", r.Inputs.TraceSHA256}, {"events", r.Inputs.EventsSHA256}, {"workload", r.Inputs.WorkloadSHA256},
			{"schedule", r.Inputs.ScheduleSHA256}, {"outcomes", r.Inputs.OutcomesSHA256},
		} {
			if in.sum != "" {
				line(in.name, "%s", in.sum)
			}
		}
	}
	fmt.Fprintln(bw, strings.Repeat("=", 61))
	return bw.Flush()
}

// TextFile writes the text report to the file at path, replacing any
// file there and never writing through a link planted in its place.
func TextFile(path string, r *report.Report) error {
	var buf bytes.Buffer
	if err := Text(&buf, r); err != nil {
		return err
	}
	return safefile.WriteWhole(path, buf.Bytes())
}

// writeThroughputText writes the endpoint and the rates it declares, each
// beside its count and denominator, and says which latency metrics the
// endpoint leaves undefined.
func writeThroughputText(line func(label, format string, args ...any), r *report.Report) {
	if r.Endpoint == "" {
		return
	}
	line("Endpoint", "%s", r.Endpoint)
	horizonS := numfmt.Compact(r.HorizonMS / 1000)
	for _, tr := range r.Throughput {
		line("Throughput "+string(tr.Unit), "%s (%d / %s s horizon; reported by %d successes)",
			numfmt.Fixed(tr.PerSecond, 3), tr.Count, horizonS, tr.Reported)
	}
	if api, ok := record.APIOf(r.Endpoint); ok && !api.FirstToken {
		line("Undefined metrics", "TTFT, TPOT, ITL and last-token latency: the %s API has no first token", r.Endpoint)
	}
}

// reportMetricsIn lists the report's metrics in report order, followed by
// any the scorer does not know (a report from a newer version).
func reportMetricsIn(r *report.Report) []record.Metric {
	out := make([]record.Metric, 0, len(r.Percentiles))
	known := map[record.Metric]bool{}
	for _, m := range report.Metrics() {
		known[m] = true
		if _, ok := r.Percentiles[m]; ok {
			out = append(out, m)
		}
	}
	for m := range r.Percentiles {
		if !known[m] {
			out = append(out, m)
		}
	}
	return out
}

// describeSLO writes the declared bounds in words.
func describeSLO(s report.SLO) string {
	var parts []string
	if s.TTFT > 0 {
		from := "from send"
		if s.TTFTFromScheduled {
			from = "from schedule"
		}
		parts = append(parts, fmt.Sprintf("ttft <= %s ms (%s)", numfmt.Compact(record.Millis(s.TTFT)), from))
	}
	if s.TPOT > 0 {
		parts = append(parts, fmt.Sprintf("tpot <= %s ms (not applicable to one-token responses; a longer response without a TPOT, e.g. 2 tokens in one event, fails it)", numfmt.Compact(record.Millis(s.TPOT))))
	}
	if s.E2E > 0 {
		parts = append(parts, fmt.Sprintf("e2e <= %s ms", numfmt.Compact(record.Millis(s.E2E))))
	}
	if len(parts) == 0 {
		return "none declared (a success with acceptable quality qualifies)"
	}
	return strings.Join(parts, ", ")
}

// fractionOf is num/den, nil when den is zero.
func fractionOf(num, den int) *float64 {
	if den == 0 {
		return nil
	}
	return new(float64(num) / float64(den))
}
