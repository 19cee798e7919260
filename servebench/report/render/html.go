package render

import (
	"bytes"
	"cmp"
	"embed"
	"fmt"
	"html/template"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/servebench/servebench/internal/numfmt"
	"github.com/servebench/servebench/internal/safefile"
	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/servebench/report"
	"github.com/servebench/servebench/servebench/schedule"
)

// reportHTMLFiles holds the page template.
//
//go:embed templates/report.html.tmpl
var reportHTMLFiles embed.FS

// reportHTMLTemplate is the parsed page template.
var reportHTMLTemplate = template.Must(template.ParseFS(reportHTMLFiles, "templates/report.html.tmpl"))

// worstRequestsShown bounds the table of worst unqualified requests.
const worstRequestsShown = 20

// worstErrorRunes bounds the error text shown per request; the whole text
// stays in report.json.
const worstErrorRunes = 300

// HTML writes the report as one self-contained HTML page: no script,
// no external font or style sheet, so it opens offline from a run
// directory. It shows the run's identity and validity, attainment and its
// Wilson bound, every rate beside its numerator and denominator, outcomes
// by status and unqualified requests by reason, each latency distribution
// with its population, the load delivery verdict, inline SVG charts drawn
// with gonum.org/v1/plot from Requests (the CDFs of TTFT and E2E over
// successful requests and a timeline of TTFT from the scheduled time,
// thinned to at most 2,000 marks), the engine's own metrics when present,
// a timeline of the engine's scraped state and the client's drift
// intervals when the report has them, and the worst unqualified requests. Every string from the report is escaped, and
// an undefined value reads "n/a".
func HTML(w io.Writer, r *report.Report) error {
	if r == nil {
		return fmt.Errorf("write HTML report: no report")
	}
	var buf bytes.Buffer
	page, err := buildHTMLPage(r)
	if err != nil {
		return err
	}
	if err := reportHTMLTemplate.Execute(&buf, page); err != nil {
		return fmt.Errorf("write HTML report: %w", err)
	}
	_, err = w.Write(buf.Bytes())
	return err
}

// HTMLFile writes the report's HTML page (HTML) to path.
func HTMLFile(path string, r *report.Report) error {
	var buf bytes.Buffer
	if err := HTML(&buf, r); err != nil {
		return err
	}
	return safefile.WriteWhole(path, buf.Bytes())
}

// htmlPage is everything the template shows, already formatted.
type htmlPage struct {
	Title          string
	Header         []htmlField
	Valid          bool
	InvalidReasons []string
	Tiles          []htmlField
	Rates          []htmlField
	Statuses       []htmlCount
	Reasons        []htmlCount
	ReasonsNote    string
	Quality        string
	Method         string
	Latency        []htmlLatencyRow
	Breakdown      []htmlBreakdown
	Delivery       []htmlField
	GeneratorNotes []string
	Checks         []htmlField
	CheckExamples  []string
	CDFs           []svgCDF
	Scatter        svgScatter
	Engine         *htmlEngine
	Timeline       *htmlTimeline
	GPU            *htmlGPU
	Worst          htmlWorst
	Footer         []htmlField
	Notes          []string
}

// htmlField is one labelled value; Detail carries the numerator and
// denominator behind it, Bad marks a value that signals trouble.
type htmlField struct {
	Label, Value, Detail string
	Bad                  bool
}

// htmlCount is one row of a count table.
type htmlCount struct {
	Name  string
	Count int
	Share string
	// Split divides a latency criterion's count into above the objective
	// and not measurable; empty for the others.
	Split string
}

// htmlLatencyRow is one distribution of the latency table.
type htmlLatencyRow struct {
	Metric, Population, N                 string
	Mean, P50, P90, P95, P99, Max, Method string
}

// htmlEngine is the engine's own view of the measurement.
type htmlEngine struct {
	URL        string
	Errors     []string
	Histograms [][3]string
	Counters   [][2]string
	Gauges     [][2]string
}

// htmlWorst is the table of the worst unqualified requests.
type htmlWorst struct {
	Caption string
	Rows    []htmlWorstRow
}

// htmlWorstRow is one unqualified request.
type htmlWorstRow struct {
	ID, Class, Status, Reasons                    string
	LongID                                        bool
	Scheduled, Lag, TTFT, TTFTSched, TPOT, E2E, N string
	Error                                         string
}

// buildHTMLPage formats the report for the template. It fails only when
// the request entries cannot be read from the report's RequestsFile.
func buildHTMLPage(r *report.Report) (*htmlPage, error) {
	p := &htmlPage{Valid: r.Valid, InvalidReasons: r.InvalidReasons, Method: numfmt.Or(string(r.PercentileMethod))}
	p.Title = "servebench report"
	if e := r.Experiment; e != nil && e.RunID != "" {
		p.Title += " " + e.RunID
	}
	p.Header = htmlHeader(r)
	windowS := (r.WindowMS[1] - r.WindowMS[0]) / 1000
	horizonS := r.HorizonMS / 1000
	p.Tiles = []htmlField{
		{Label: "Offered", Value: strconv.Itoa(r.Offered),
			Detail: fmt.Sprintf("%s req/s = %d / %s s window", numfmt.OptFixed(r.OfferedRPS, 3), r.Offered, numfmt.Compact(windowS))},
		{Label: "Qualified", Value: strconv.Itoa(r.Qualified),
			Detail: fmt.Sprintf("%d of %d offered; %s req/s = %d / %s s horizon", r.Qualified, r.Offered, numfmt.OptFixed(r.QualifiedRPS, 3), r.Qualified, numfmt.Compact(horizonS))},
		{Label: "SLO attainment", Value: numfmt.OptPercent(r.Attainment),
			Detail: fmt.Sprintf("%d / %d; %s", r.Qualified, r.Offered, numfmt.Or(r.AttainmentKind))},
		{Label: fmt.Sprintf("Wilson lower bound (%s, one-sided)", numfmt.Level(r.WilsonConfidence)), Value: numfmt.OptPercent(r.WilsonLower),
			Detail: fmt.Sprintf("on %d / %d", r.Qualified, r.Offered)},
	}
	if r.Pending > 0 {
		p.Tiles[1].Detail += fmt.Sprintf("; %d pending, counted unqualified", r.Pending)
	}
	capacity := "not estimated: one run is not a capacity (sweep offered rates)"
	if r.CapacityEstimateRPS != nil {
		capacity = numfmt.OptFixed(r.CapacityEstimateRPS, 3) + " req/s"
	}
	p.Rates = []htmlField{
		{Label: "Protocol successes", Value: fmt.Sprintf("%d of %d offered (%s)", r.ProtocolSuccesses, r.Offered, numfmt.OptPercent(fractionOf(r.ProtocolSuccesses, r.Offered)))},
		{Label: "Successful request rate", Value: fmt.Sprintf("%s req/s (%d / %s s horizon)", numfmt.OptFixed(r.SuccessfulRPS, 3), r.ProtocolSuccesses, numfmt.Compact(horizonS))},
		{Label: "Qualified request rate", Value: fmt.Sprintf("%s req/s (%d / %s s horizon)", numfmt.OptFixed(r.QualifiedRPS, 3), r.Qualified, numfmt.Compact(horizonS))},
		{Label: "SLO capacity", Value: capacity},
		{Label: "Arrival window", Value: fmt.Sprintf("[%s, %s) ms (%s s)", numfmt.Compact(r.WindowMS[0]), numfmt.Compact(r.WindowMS[1]), numfmt.Compact(windowS))},
		{Label: "Horizon", Value: numfmt.Compact(r.HorizonMS) + " ms (window start to the later of window end and last terminal outcome)"},
	}
	if r.PrefixCache != nil {
		p.Rates = append(p.Rates, htmlField{Label: "Prefix cache hit rate", Value: prefixCacheText(r.PrefixCache)})
		if s := expectedReuseText(r.PrefixCache); s != "" {
			p.Rates = append(p.Rates, htmlField{Label: "Expected prefix reuse", Value: s})
		}
	}

	for _, s := range statusesIn(r) {
		c := r.StatusCounts[s]
		p.Statuses = append(p.Statuses, htmlCount{Name: string(s), Count: c,
			Share: fmt.Sprintf("%d of %d offered (%s)", c, r.Offered, numfmt.OptPercent(fractionOf(c, r.Offered)))})
	}
	unqualified := r.Offered - r.Qualified
	for _, reason := range reasonsIn(r) {
		c := r.ReasonCounts[reason]
		p.Reasons = append(p.Reasons, htmlCount{Name: string(reason), Count: c,
			Share: fmt.Sprintf("%d of %d unqualified (%s)", c, unqualified, numfmt.OptPercent(fractionOf(c, unqualified))),
			Split: reasonSplitText(r, reason)})
	}

	p.ReasonsNote = fmt.Sprintf("%d of %d offered are unqualified; a request can fail several criteria, so the counts can add up to more.", unqualified, r.Offered)
	p.Quality = fmt.Sprintf("%d judged (%d pass, %d fail), %d unscored, of %d offered",
		r.Quality.Judged, r.Quality.Passed, r.Quality.Failed, r.Quality.Unscored, r.Offered)

	for _, m := range reportMetricsIn(r) {
		d := r.Percentiles[m]
		p.Latency = append(p.Latency, htmlLatencyRow{Metric: string(m), Population: d.Population, N: strconv.Itoa(d.N),
			Mean: numfmt.OptCompact(d.Mean), P50: numfmt.OptCompact(d.P50), P90: numfmt.OptCompact(d.P90), P95: numfmt.OptCompact(d.P95), P99: numfmt.OptCompact(d.P99), Max: numfmt.OptCompact(d.Max)})
	}
	p.Delivery, p.GeneratorNotes = htmlDelivery(r)
	p.Checks, p.CheckExamples = htmlChecks(r)
	// The charts and the table of the worst requests take what they need
	// of the request entries (which may be streamed from requests.jsonl)
	// in one pass; the scatter's marks, placed in the frame that pass
	// spans, in a second.
	entries, err := readHTMLEntries(r)
	if err != nil {
		return nil, err
	}
	// An endpoint without a first token (embeddings, rerank) defines no
	// TTFT: its report has no TTFT population and the page no TTFT chart.
	if entries.ttft != nil {
		p.CDFs = append(p.CDFs, cdfChart("TTFT: first content − sent (ms)", entries.ttft, entries.ttftBound))
	}
	p.CDFs = append(p.CDFs, cdfChart("E2E: terminal − sent (ms)", entries.e2e, entries.e2eBound))
	p.Scatter = scatterChartSpanned(r, &entries.scatter)
	p.Engine = htmlEngineMetrics(r.EngineMetrics)
	p.Timeline = htmlTimelineOf(r)
	p.GPU = htmlGPUTelemetry(r.GPUTelemetry)
	p.Worst = entries.worst.result()
	p.Breakdown = htmlBreakdowns(r)
	p.Footer, p.Notes = htmlFooter(r)
	return p, nil
}

// htmlHeader lists what was run, against what, and how.
func htmlHeader(r *report.Report) []htmlField {
	e := r.Experiment
	if e == nil {
		e = &report.Experiment{}
	}
	engine := ""
	if en := e.Engine; en != nil {
		parts := []string{cmp.Or(en.Kind, "unknown kind")}
		if en.Image != "" {
			parts = append(parts, "image "+en.Image)
		}
		if en.ImageID != "" {
			parts = append(parts, "digest "+en.ImageID)
		}
		if en.Version != "" {
			parts = append(parts, "version "+en.Version)
		}
		if en.ColdStartMS != nil {
			parts = append(parts, "cold start "+numfmt.OptCompact(en.ColdStartMS)+" ms")
		}
		if len(en.Args) > 0 {
			parts = append(parts, "args "+strings.Join(en.Args, " "))
		}
		engine = strings.Join(parts, ", ")
	}
	model := e.Model
	if model == "" && e.Engine != nil {
		model = e.Engine.Model
	}
	workload := numfmt.Or(e.Workload)
	if r.Inputs.WorkloadSHA256 != "" {
		workload += ", sha256 " + r.Inputs.WorkloadSHA256
	}
	fields := []htmlField{
		{Label: "Run ID", Value: numfmt.Or(e.RunID)},
		{Label: "Start time", Value: numfmt.Or(e.StartTime)},
	}
	// An engine servebench did not start records nothing about itself: no
	// row then, rather than one reading n/a.
	if engine != "" {
		fields = append(fields, htmlField{Label: "Engine", Value: engine})
	}
	fields = append(fields, []htmlField{
		{Label: "Model", Value: numfmt.Or(model)},
		{Label: "Endpoint", Value: numfmt.Or(strings.TrimSpace(string(e.Endpoint) + " " + e.BaseURL))},
		{Label: "Arrival", Value: describeArrival(r)},
		{Label: "Workload", Value: workload},
		{Label: "SLO", Value: describeSLO(r.SLO)},
	}...)
	if t := e.Timeouts; t != (report.Timeouts{}) {
		fields = append(fields, htmlField{Label: "Timeouts", Value: fmt.Sprintf("first token %s, idle %s, total %s",
			htmlTimeout(t.FirstTokenMS), htmlTimeout(t.IdleMS), htmlTimeout(t.TotalMS))})
	}
	if e.WarmupCount > 0 {
		fields = append(fields, htmlField{Label: "Warmup", Value: numfmt.Count(e.WarmupCount, "request", "requests") + ", excluded from the cohort"})
	}
	for _, tr := range r.Throughput {
		fields = append(fields, htmlField{Label: "Throughput " + string(tr.Unit), Value: fmt.Sprintf("%s (%d over the %s s horizon)",
			numfmt.Fixed(tr.PerSecond, 3), tr.Count, numfmt.Compact(r.HorizonMS/1000))})
	}
	for _, k := range sortedKeys(e.Labels) {
		fields = append(fields, htmlField{Label: "Label " + k, Value: fmt.Sprint(e.Labels[k])})
	}
	return fields
}

// describeArrival names the arrival process with its parameters; a report
// without an experiment record says what the generator saw.
func describeArrival(r *report.Report) string {
	if r.Experiment == nil || r.Experiment.Arrival.Process == "" {
		if g := r.Generator; g != nil {
			return string(g.Mode) + " loop (process not recorded)"
		}
		return numfmt.Undefined
	}
	a := r.Experiment.Arrival
	var parts []string
	switch a.Process {
	case schedule.ProcessClosed:
		parts = append(parts, fmt.Sprintf("closed loop, %s, think time %s ms (never a capacity)", numfmt.Count(a.Users, "user", "users"), numfmt.Compact(a.ThinkTimeMS)))
	case schedule.ProcessReplay:
		parts = append(parts, "replay of stored timestamps")
	default:
		parts = append(parts, fmt.Sprintf("%s, %s req/s", a.Process, numfmt.Compact(a.RateRPS)))
	}
	// Each parameter shapes one process only: the others' values, even
	// when recorded, were not used.
	switch {
	case a.Process == schedule.ProcessGamma && a.Burstiness > 0:
		parts = append(parts, "burstiness "+numfmt.Shortest(a.Burstiness))
	case a.Process == schedule.ProcessBurst && a.BurstSize > 0:
		parts = append(parts, "burst size "+strconv.Itoa(a.BurstSize))
	case a.Process == schedule.ProcessReplay && a.TimeScale > 0:
		parts = append(parts, "time scale "+numfmt.Shortest(a.TimeScale))
	}
	parts = append(parts, "seed "+strconv.FormatInt(a.Seed, 10))
	return strings.Join(parts, ", ")
}

// htmlDelivery lists the load delivery verdict and the generator's notes.
func htmlDelivery(r *report.Report) ([]htmlField, []string) {
	valid := htmlField{Label: "Valid", Value: fmt.Sprintf("yes: every offered request was sent within %s ms of its schedule", numfmt.Compact(r.ScheduleLagToleranceMS))}
	if !r.Valid {
		valid = htmlField{Label: "Valid", Value: "NO: the load was not delivered", Bad: true}
	}
	fields := []htmlField{valid,
		{Label: "Max schedule lag", Value: fmt.Sprintf("%s ms (tolerance %s ms; %d of %d late)",
			numfmt.OptCompact(r.MaxScheduleLagMS), numfmt.Compact(r.ScheduleLagToleranceMS), r.LateCount, r.Offered), Bad: r.LateCount > 0},
	}
	if b := r.Backlog; b != nil {
		fields = append(fields, htmlField{Label: "Outstanding requests", Value: backlogText(b), Bad: b.Growing})
	}
	if f := r.Fluidity; f != nil {
		fields = append(fields, htmlField{Label: "Fluidity index", Value: fmt.Sprintf("%s (%d of %d deadlines missed; first token %s ms, cadence %s ms)",
			numfmt.OptFixed(f.Index, 3), f.MissedDeadlines, f.Deadlines, numfmt.Compact(f.FirstTokenDeadlineMS), numfmt.Compact(f.CadenceMS))})
	}
	g := r.Generator
	if g == nil {
		return fields, nil
	}
	capacity := "none"
	if g.MaxConcurrency > 0 {
		capacity = fmt.Sprintf("%d in flight (bound: %v)", g.MaxConcurrency, g.CapBound)
	}
	fields = append(fields,
		htmlField{Label: "Generator", Value: fmt.Sprintf("%s loop, %d of %d scheduled sent, saturated: %v", g.Mode, g.Sent, g.Scheduled, g.Saturated), Bad: g.Saturated},
		htmlField{Label: "Ideal / delivered rate", Value: fmt.Sprintf("%s / %s req/s", numfmt.OptFixed(g.IdealRPS, 3), numfmt.OptFixed(g.DeliveredRPS, 3))},
		htmlField{Label: "Client concurrency cap", Value: capacity, Bad: g.CapBound},
		htmlField{Label: "Peak outstanding", Value: strconv.Itoa(g.PeakOutstanding)},
		htmlField{Label: "Go scheduler latency p99", Value: numfmt.OptCompact(g.SchedulerLatencyP99MS) + " ms"},
	)
	for _, l := range historyLines(g) {
		fields = append(fields, htmlField{Label: l[0], Value: l[1]})
	}
	return fields, g.Notes
}

// htmlChecks lists the prompt-length audit and the forced output lengths.
func htmlChecks(r *report.Report) ([]htmlField, []string) {
	var fields []htmlField
	var examples []string
	if a := r.PromptTokens; a != nil {
		fields = append(fields, htmlField{Label: "Prompt tokens",
			Value: fmt.Sprintf("%d compared, %d beyond tolerance, %d unreported; mean reported − intended %s, max |difference| %d%s",
				a.Compared, a.Mismatched, a.Unreported, numfmt.OptFixed(a.MeanDifference, 1), a.MaxAbsDifference, carriedHistoryText(a)), Bad: a.Mismatched > 0})
		examples = append(examples, a.Examples...)
	}
	if o := r.OutputLengths; o != nil {
		fields = append(fields, htmlField{Label: "Forced output lengths",
			Value: fmt.Sprintf("%d forced, %d not enforceable, %d short of max_tokens, %d unknown", o.Forced, o.NotEnforceable, o.ShortOfMaxTokens, o.Unknown),
			Bad:   o.NotEnforceable > 0 || o.ShortOfMaxTokens > 0})
		examples = append(examples, o.Examples...)
	}
	return fields, examples
}

// htmlEngineMetrics formats the engine's scrape; nil when there was none.
func htmlEngineMetrics(em *report.EngineMetrics) *htmlEngine {
	if em == nil {
		return nil
	}
	e := &htmlEngine{URL: em.URL, Errors: em.Errors}
	for _, k := range sortedKeys(em.Histograms) {
		h := em.Histograms[k]
		mean := numfmt.Undefined
		if h.Mean != nil {
			mean = numfmt.Sig6(*h.Mean)
		}
		e.Histograms = append(e.Histograms, [3]string{k, numfmt.Shortest(h.Count), mean})
	}
	for _, k := range sortedKeys(em.Counters) {
		if v := em.Counters[k]; v != 0 {
			e.Counters = append(e.Counters, [2]string{k, "+" + numfmt.Shortest(v)})
		}
	}
	for _, k := range sortedKeys(em.Gauges) {
		e.Gauges = append(e.Gauges, [2]string{k, numfmt.Shortest(em.Gauges[k])})
	}
	return e
}

// worstRequests keeps the worst unqualified requests (those that did not
// succeed first, in schedule order, then successes by how far they
// exceeded their worst declared bound, most first) as the entries pass
// (they may be streamed), pruning as it goes, so that its memory does not
// follow the unqualified count.
type worstRequests struct {
	slo         report.SLO
	bad         []rankedRequest
	unqualified int
}

// rankedRequest is an unqualified request with what ranks it.
type rankedRequest struct {
	q      report.RequestScore
	failed bool
	excess float64
}

// worstOrder ranks failures first, in schedule order, then successes by
// their excess over a bound, most first.
func worstOrder(a, b rankedRequest) int {
	if a.failed != b.failed {
		if a.failed {
			return -1
		}
		return 1
	}
	if a.failed {
		return cmp.Or(cmp.Compare(a.q.ScheduledMS, b.q.ScheduledMS), cmp.Compare(a.q.ID, b.q.ID))
	}
	return cmp.Or(cmp.Compare(b.excess, a.excess), cmp.Compare(a.q.ScheduledMS, b.q.ScheduledMS), cmp.Compare(a.q.ID, b.q.ID))
}

// add takes one entry.
func (w *worstRequests) add(q *report.RequestScore) {
	if q.Qualified {
		return
	}
	w.unqualified++
	w.bad = append(w.bad, rankedRequest{q: *q, failed: q.Status != record.StatusSuccess, excess: boundExcess(w.slo, q)})
	if len(w.bad) >= 8*worstRequestsShown {
		slices.SortFunc(w.bad, worstOrder)
		w.bad = w.bad[:worstRequestsShown]
	}
}

// result is the table of the worst requests seen.
func (w *worstRequests) result() htmlWorst {
	slices.SortFunc(w.bad, worstOrder)
	shown := min(len(w.bad), worstRequestsShown)
	h := htmlWorst{Caption: fmt.Sprintf("%d of %d unqualified requests shown: those that did not succeed first, in schedule order, then successes by how far they exceeded their worst declared bound (observed / bound).",
		shown, w.unqualified)}
	for _, b := range w.bad[:shown] {
		h.Rows = append(h.Rows, worstRow(&b.q))
	}
	return h
}

// worstRow is one request's row of the table.
func worstRow(q *report.RequestScore) htmlWorstRow {
	reasons := make([]string, len(q.Reasons))
	for k, reason := range q.Reasons {
		reasons[k] = string(reason)
	}
	msg := q.Error
	if q.QualityEvidence != "" {
		msg = strings.TrimPrefix(msg+"; quality: "+q.QualityEvidence, "; ")
	}
	if n := utf8.RuneCountInString(msg); n > worstErrorRunes {
		msg = fmt.Sprintf("%s… (cut at %d of %d characters; the JSON report holds them all)", string([]rune(msg)[:worstErrorRunes]), worstErrorRunes, n)
	}
	tokens := numfmt.Undefined
	if q.OutputTokens != nil {
		tokens = strconv.Itoa(*q.OutputTokens)
	}
	return htmlWorstRow{ID: q.ID, LongID: utf8.RuneCountInString(q.ID) > 32, Class: q.Class, Status: string(q.Status), Reasons: strings.Join(reasons, ", "),
		Scheduled: numfmt.Compact(q.ScheduledMS), Lag: numfmt.OptCompact(q.ScheduleLagMS), TTFT: numfmt.OptCompact(q.TTFTMS), TTFTSched: numfmt.OptCompact(q.TTFTFromScheduledMS),
		TPOT: numfmt.OptCompact(q.TPOTMS), E2E: numfmt.OptCompact(q.E2EMS), N: tokens, Error: msg}
}

// boundExcess is the largest ratio of an observed latency to its declared
// bound, over the bounds the SLO declares; 0 when none applies.
func boundExcess(s report.SLO, q *report.RequestScore) float64 {
	worst := 0.0
	check := func(v *float64, boundMS float64) {
		if v != nil && boundMS > 0 && finite(*v) {
			worst = max(worst, *v/boundMS)
		}
	}
	ttft := q.TTFTMS
	if s.TTFTFromScheduled {
		ttft = q.TTFTFromScheduledMS
	}
	check(ttft, record.Millis(s.TTFT))
	check(q.TPOTMS, record.Millis(s.TPOT))
	check(q.E2EMS, record.Millis(s.E2E))
	return worst
}

// htmlFooter lists the input hashes and the client that measured.
func htmlFooter(r *report.Report) ([]htmlField, []string) {
	var fields []htmlField
	for _, in := range []struct{ name, sum string }{
		{"trace", r.Inputs.TraceSHA256}, {"events", r.Inputs.EventsSHA256}, {"workload", r.Inputs.WorkloadSHA256},
		{"schedule", r.Inputs.ScheduleSHA256}, {"outcomes", r.Inputs.OutcomesSHA256},
	} {
		if in.sum != "" {
			fields = append(fields, htmlField{Label: in.name + " sha256", Value: in.sum})
		}
	}
	e := r.Experiment
	if e == nil {
		return fields, nil
	}
	fields = append(fields, htmlField{Label: "Client", Value: fmt.Sprintf("servebench %s, %s, host %s",
		numfmt.Or(e.ClientVersion), numfmt.Or(e.GoVersion), numfmt.Or(e.Host))})
	return fields, e.Notes
}

// defines reports whether the report's endpoint defines metric m; a
// report that does not name its endpoint defines every metric.
func defines(r *report.Report, m record.Metric) bool {
	if r.Endpoint == "" {
		return true
	}
	api, ok := record.APIOf(r.Endpoint)
	return !ok || api.Defines(m)
}

// statusesIn lists every known status, then any other the report counts.
func statusesIn(r *report.Report) []record.Status {
	return knownThenExtra(record.Statuses(), r.StatusCounts)
}

// reasonsIn lists every known reason, then any other the report counts.
func reasonsIn(r *report.Report) []report.Reason {
	return knownThenExtra(report.Reasons(), r.ReasonCounts)
}

// knownThenExtra lists the known keys in their order, then the keys of
// counts that are not among them, sorted.
func knownThenExtra[K ~string](known []K, counts map[K]int) []K {
	out := slices.Clone(known)
	var extra []K
	for k := range counts {
		if !slices.Contains(known, k) {
			extra = append(extra, k)
		}
	}
	slices.Sort(extra)
	return append(out, extra...)
}

// htmlTimeout formats a declared deadline; zero is "none".
func htmlTimeout(ms float64) string {
	if ms == 0 {
		return "none"
	}
	return readableDuration(ms)
}

// readableDuration writes a duration given in milliseconds in the largest
// unit that keeps it readable: "250 ms", "30 s", "1.5 s", "5 min",
// "2 min 30 s", "1 h 30 min".
func readableDuration(ms float64) string {
	switch s := ms / 1000; {
	case !(ms >= 1000) || math.IsInf(ms, 0):
		return numfmt.Compact(ms) + " ms"
	case s < 60 || s != math.Trunc(s):
		return numfmt.Compact(s) + " s"
	case s < 3600 || math.Mod(s, 60) != 0:
		return unitsOf(int64(s), 60, "min", "s")
	default:
		return unitsOf(int64(s)/60, 60, "h", "min")
	}
}

// unitsOf writes n small units as whole large ones (per of them) and the
// remainder, leaving out a zero remainder.
func unitsOf(n, per int64, large, small string) string {
	out := strconv.FormatInt(n/per, 10) + " " + large
	if rest := n % per; rest != 0 {
		out += " " + strconv.FormatInt(rest, 10) + " " + small
	}
	return out
}
