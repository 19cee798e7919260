package llmdreport

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"time"

	"github.com/servebench/servebench/servebench"
	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/servebench/report"
)

// Definitions says how servebench defines its figures, in the load's
// metadata, because the schema warns that tools differ on TPOT and ITL.
const Definitions = "servebench definitions (client monotonic clock; d sent, f first content, l last content, e terminal, n output tokens from usage): " +
	"time_to_first_token = f - d; time_per_output_token = (l - f)/(n - 1) per successful request with n > 1 and at least two content events, else undefined and left out; " +
	"inter_token_latency = token-level gaps pooled over successful requests whose every event is proven by logprobs to hold one token (absent otherwise: a chunk's delay is never split); " +
	"request_latency = e - d; latencies over successful requests; percentiles by the run's percentile method; " +
	"throughput = successful requests' tokens and count divided by the cohort horizon; failures = offered requests that ended in an error status; incomplete = not sent or cancelled."

// FromRun builds the Benchmark Report of one finished run from its result:
// the report, the run directory's outcomes.jsonl (for the token lengths) and
// the experiment record.
func FromRun(res *servebench.RunResult) (*Report, error) {
	if res == nil || res.Report == nil {
		return nil, errors.New("llm-d benchmark report: the run has no report")
	}
	rep := res.Report
	x := rep.Experiment
	if x == nil {
		return nil, errors.New("llm-d benchmark report: the run's report has no experiment record")
	}
	l, err := readLengths(filepath.Join(res.Dir, record.OutcomesFile))
	if err != nil {
		return nil, fmt.Errorf("llm-d benchmark report: %w", err)
	}
	label := engineLabel(x)
	br := &Report{
		Version:  Version,
		Run:      Run{UID: x.RunID, Time: runTime(x.StartTime, rep.HorizonMS)},
		Scenario: &Scenario{Stack: []Component{engineComponent(label, x, rep)}, Load: load(x, rep, l)},
		Results: Results{
			RequestPerformance: &RequestPerformance{Aggregate: aggregate(rep, l)},
			Observability:      observability(label, clockOrigin(x), rep.EngineSeries),
		},
	}
	return br, nil
}

// aggregate is results.request_performance.aggregate.
func aggregate(rep *report.Report, l lengths) Aggregate {
	incomplete := rep.StatusCounts[record.StatusNotSent] + rep.StatusCounts[record.StatusCancelled] + rep.Pending
	a := Aggregate{
		Requests: Requests{
			Total:        rep.Offered,
			Failures:     max(rep.Offered-rep.ProtocolSuccesses-incomplete, 0),
			Incomplete:   incomplete,
			InputLength:  sampleStatistics(UnitsCount, &l.input, rep.PercentileMethod),
			OutputLength: sampleStatistics(UnitsCount, &l.output, rep.PercentileMethod),
		},
		Latency: Latency{
			TimeToFirstToken:   metricStatistics(rep, record.MetricTTFT, UnitsMS),
			TimePerOutputToken: metricStatistics(rep, record.MetricTPOT, UnitsMSPerToken),
			InterTokenLatency:  metricStatistics(rep, record.MetricITL, UnitsMSPerToken),
			RequestLatency:     metricStatistics(rep, record.MetricE2E, UnitsMS),
		},
		Throughput: Throughput{RequestRate: rate(UnitsQueriesPerS, rep.SuccessfulRPS)},
	}
	if rep.HorizonMS > 0 {
		seconds := rep.HorizonMS / 1000
		in, out := l.input.sum()/seconds, l.output.sum()/seconds
		total := in + out
		if l.input.len() > 0 {
			a.Throughput.InputTokenRate = rate(UnitsTokensPerS, &in)
		}
		if l.output.len() > 0 {
			a.Throughput.OutputTokenRate = rate(UnitsTokensPerS, &out)
		}
		if l.input.len() > 0 && l.output.len() > 0 {
			a.Throughput.TotalTokenRate = rate(UnitsTokensPerS, &total)
		}
	}
	return a
}

// load is scenario.load: servebench, the arrival, and the lengths seen.
func load(x *report.Experiment, rep *report.Report, l lengths) *Load {
	desc := Definitions
	in, ok := sequenceLength(&l.input)
	if !ok {
		desc += " The engine reported no prompt token counts, so input_seq_len is unknown (written as 0, distribution other)."
	}
	ld := &Load{
		Metadata: LoadMetadata{CfgID: rep.Inputs.WorkloadSHA256, Description: desc},
		Standardized: LoadStandardized{
			Tool: "servebench", ToolVersion: x.ClientVersion, Source: "sampled", InputSeqLen: in,
		},
		Native: Native{
			Args: map[string]any{"arrival": toMap(x.Arrival), "workload": x.Workload, "endpoint": string(x.Endpoint), "warmup": x.WarmupCount},
			Config: map[string]any{
				"workload_sha256": rep.Inputs.WorkloadSHA256, "schedule_sha256": rep.Inputs.ScheduleSHA256,
				"outcomes_sha256": rep.Inputs.OutcomesSHA256, "report": record.ReportFile,
			},
		},
	}
	if out, ok := sequenceLength(&l.output); ok {
		ld.Standardized.OutputSeqLen = &out
	}
	switch a := x.Arrival; {
	case a.Users > 0:
		users := a.Users
		ld.Standardized.Concurrency = &users
	case a.RateRPS > 0:
		r := a.RateRPS
		ld.Standardized.RateQPS = &r
	}
	return ld
}

// engineLabel names the engine component.
func engineLabel(x *report.Experiment) string {
	if x.Engine != nil && x.Engine.Kind != "" {
		return x.Engine.Kind
	}
	return "engine"
}

// engineComponent is the engine from the experiment record.
func engineComponent(label string, x *report.Experiment, rep *report.Report) Component {
	tool, version, model := "unknown", "unknown", x.Model
	native := Native{Config: map[string]any{"base_url": x.BaseURL}}
	if e := x.Engine; e != nil {
		tool = label
		if e.Version != "" {
			version = e.Version
		}
		if e.Model != "" {
			model = e.Model
		}
		native.Args = map[string]any{"argv": e.Args}
		native.Config = map[string]any{"base_url": x.BaseURL, "image": e.Image, "image_id": e.ImageID}
	}
	if model == "" {
		model = "unknown"
	}
	acc := Accelerator{Model: "unknown"}
	if g := rep.GPUTelemetry; g != nil && len(g.GPUs) > 0 {
		acc = Accelerator{Model: g.GPUs[0].Name, Count: len(g.GPUs)}
		if acc.Model == "" {
			acc.Model = "unknown"
		}
	}
	return Component{
		Metadata: ComponentMetadata{Label: label, CfgID: configID(tool, model, native)},
		Standardized: InferenceEngine{
			Kind: "inference_engine", Tool: tool, ToolVersion: version, Role: "replica", Replicas: 1,
			Model: Model{Name: model}, Accelerator: acc,
		},
		Native: native,
	}
}

// configID hashes a component's configuration.
func configID(parts ...any) string {
	b, _ := json.Marshal(parts)
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:8])
}

// toMap turns a JSON-tagged value into a map, for the native arguments.
func toMap(v any) map[string]any {
	b, _ := json.Marshal(v)
	var m map[string]any
	_ = json.Unmarshal(b, &m)
	return m
}

// runTime is the run's start, its end one horizon later, and the horizon as
// an ISO-8601 duration. Nil when the start is not an RFC 3339 instant.
func runTime(start string, horizonMS float64) *RunTime {
	t0, err := time.Parse(time.RFC3339Nano, start)
	if err != nil {
		return nil
	}
	d := time.Duration(horizonMS * float64(time.Millisecond))
	return &RunTime{
		Start:    t0.UTC().Format(time.RFC3339Nano),
		End:      t0.Add(d).UTC().Format(time.RFC3339Nano),
		Duration: fmt.Sprintf("PT%.3fS", d.Seconds()),
	}
}
