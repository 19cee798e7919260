package suites_test

import (
	"os"
	"path/filepath"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/servebench/servebench/servebench/capacity"
	"github.com/servebench/servebench/servebench/openai"
	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/servebench/report"
	"github.com/servebench/servebench/servebench/schedule"
	"github.com/servebench/servebench/suites"
)

// minimal is the smallest valid contract; the error cases below change one
// line of it. Its lines: 1 name, 2 engine, 3 kind, 4 workload, 5 file,
// 6 arrival, 7 process, 8 rate, 9 count.
const minimal = `name: minimal
engine:
  kind: simengine
workload:
  file: workload.jsonl
arrival:
  process: constant
  rate: 5
count: 10
`

// inline is the path inline contracts claim, so that workload.jsonl
// resolves to testdata/workload.jsonl.
const inline = "testdata/inline.yaml"

// edit replaces one line of minimal (1-based) with text, or appends text
// when line is 0.
func edit(line int, text string) string {
	lines := strings.Split(strings.TrimSuffix(minimal, "\n"), "\n")
	if line == 0 {
		return minimal + text + "\n"
	}
	lines[line-1] = text
	return strings.Join(lines, "\n") + "\n"
}

func f(v float64) *float64 { return &v }

var _ = Describe("Load", func() {
	It("reads every field of the documented example", func() {
		c, err := suites.Load("testdata/full.yaml")
		Expect(err).NotTo(HaveOccurred())
		Expect(c.Name).To(Equal("chat-short-vllm"))
		Expect(c.Labels).To(Equal([]string{"nightly", "team:serving"}))
		Expect(c.Engine).To(Equal(&suites.EngineSpec{
			Kind: "vllm", Image: "vllm/vllm-openai:v0.9.1", Model: "Qwen/Qwen2.5-0.5B-Instruct",
			Args: []string{"--max-num-seqs", "64"}, GPUs: 1, Env: map[string]string{"HF_HUB_OFFLINE": "1", "VLLM_SERVER_DEV_MODE": "1"},
		}))
		Expect(c.CacheReset).To(BeTrue())
		Expect(c.Endpoint).To(Equal(record.EndpointChat))
		Expect(c.LengthControl).To(Equal(openai.LengthIgnoreEOSMinTokens))
		Expect(c.Workload.Requests).To(HaveLen(8))
		Expect(c.WorkloadSource).To(Equal(filepath.Join("testdata", "workload.jsonl")))
		Expect(c.Arrival).To(Equal(suites.ArrivalSpec{ArrivalSpec: schedule.ArrivalSpec{Process: "gamma", Burstiness: 0.5, Seed: 42}, Rates: []float64{2, 4, 8}}))
		Expect(c.Count).To(Equal(200))
		Expect(c.Warmup).To(Equal(10))
		Expect(c.Timeouts).To(Equal(suites.Timeouts{
			FirstToken: 10 * time.Second, Idle: 5 * time.Second, Total: time.Minute, Run: 10 * time.Minute, Startup: 15 * time.Minute,
		}))
		Expect(c.SLO).To(Equal(report.SLO{TTFT: 500 * time.Millisecond, TPOT: 50 * time.Millisecond, E2E: 10 * time.Second}))
		Expect(c.Objectives).To(Equal(suites.Objectives{
			ValidLoad: true, Attainment: f(0.95), WilsonLower: f(0.90), Confidence: 0.95,
			Percentiles: []suites.PercentileObjective{
				{Metric: record.MetricTTFT, P: 99, Below: time.Second},
				{Metric: record.MetricTPOT, P: 90, Below: 60 * time.Millisecond},
			},
			ErrorRate: f(0.01), QualifiedRate: f(1.5), PrefixCacheHitRate: f(0.5),
			SpeculativeDecoding: &suites.SpeculativeObjective{MeanAcceptanceLengthAtLeast: f(2.5)},
			Breakdown: []suites.BreakdownObjective{{Dimension: "adapter", Value: "sql", Attainment: f(0.9), WilsonLower: f(0.8),
				Percentiles: []suites.PercentileObjective{{Metric: record.MetricTTFT, P: 99, Below: 2 * time.Second}}}},
			Capacity: &suites.CapacityObjective{AtLeast: 4, Rule: capacity.Rule{
				MinAttainment: 0.95, Confidence: 0.95, RequireNoBacklogGrowth: true,
			}},
		}))
		Expect(c.ScheduleLagTolerance).To(Equal(20 * time.Millisecond))
		Expect(c.Artifacts).To(Equal(filepath.Join("testdata", "artifacts")))
		Expect(c.AllLabels()).To(Equal([]string{"nightly", "team:serving", "engine:vllm", "gpu", "sweep"}))
	})

	It("fills the defaults of a minimal contract", func() {
		c, err := suites.Parse(inline, []byte(minimal))
		Expect(err).NotTo(HaveOccurred())
		Expect(c.Endpoint).To(Equal(record.EndpointChat))
		Expect(c.LengthControl).To(Equal(openai.LengthIgnoreEOS))
		Expect(c.Arrival).To(Equal(suites.ArrivalSpec{ArrivalSpec: schedule.ArrivalSpec{Process: "constant", RateRPS: 5, Seed: 1}, Rates: []float64{5}}))
		Expect(c.Objectives).To(Equal(suites.Objectives{ValidLoad: true, Confidence: 0.95}))
		Expect(c.AllLabels()).To(Equal([]string{"engine:simengine"}))
	})

	It("refuses bounded_memory, removed with the run modes", func() {
		_, err := suites.Parse(inline, []byte(edit(0, "bounded_memory: true")))
		Expect(err).To(MatchError(ContainSubstring("testdata/inline.yaml:10:1: bounded_memory: unknown field")))
	})

	It("takes any percentile level in (0, 100] for a percentile objective", func() {
		c, err := suites.Parse(inline, []byte(edit(0, "objectives:\n  percentiles: [{metric: ttft, p: 99.9, below: 1s}]")))
		Expect(err).NotTo(HaveOccurred())
		Expect(c.Objectives.Percentiles).To(HaveLen(1))
		Expect(c.Objectives.Percentiles[0].P).To(Equal(99.9))
	})

	It("reads benchmark_report: json by default, yaml or none when declared", func() {
		c, err := suites.Parse(inline, []byte(minimal))
		Expect(err).NotTo(HaveOccurred())
		Expect(c.BenchmarkReport).To(Equal("json"))
		for _, v := range []string{"yaml", "none"} {
			c, err = suites.Parse(inline, []byte(edit(0, "benchmark_report: "+v)))
			Expect(err).NotTo(HaveOccurred())
			Expect(c.BenchmarkReport).To(Equal(v))
		}
	})

	It("reads backend_header and backend_metrics into the runner's configuration", func() {
		c, err := suites.Parse(inline, []byte(edit(0, "backend_header: X-Served-By\nbackend_metrics: [http://127.0.0.1:9001/metrics]")))
		Expect(err).NotTo(HaveOccurred())
		Expect(c.BackendHeader).To(Equal("X-Served-By"))
		Expect(c.BackendMetrics).To(Equal([]string{"http://127.0.0.1:9001/metrics"}))
		_, err = suites.Parse(inline, []byte(edit(0, "backend_header: X Served")))
		Expect(err).To(MatchError(ContainSubstring(`backend_header: header "X Served": the name holds ' '`)))
	})

	It("reads a process engine: the module's command from a local binary, no image", func() {
		c, err := suites.Parse(inline, []byte(edit(3, "  kind: vllm\n  model: Qwen/Qwen3-0.6B\n  args: [--max-num-seqs, \"8\"]\n"+
			"  process:\n    binary: /opt/vllm/bin/vllm\n    args: [--enforce-eager]\n    env: {VLLM_LOGGING_LEVEL: DEBUG}")))
		Expect(err).NotTo(HaveOccurred())
		Expect(c.Engine).To(Equal(&suites.EngineSpec{
			Kind: "vllm", Model: "Qwen/Qwen3-0.6B", Args: []string{"--max-num-seqs", "8"},
			Process: &suites.EngineProcess{Binary: "/opt/vllm/bin/vllm", Args: []string{"--enforce-eager"},
				Env: map[string]string{"VLLM_LOGGING_LEVEL": "DEBUG"}},
		}))
		c, err = suites.Parse(inline, []byte(edit(3, "  kind: ollama\n  model: /models/tiny.gguf")))
		Expect(err).NotTo(HaveOccurred())
		Expect(c.Engine).To(Equal(&suites.EngineSpec{Kind: "ollama", Model: "/models/tiny.gguf"}))
	})

	DescribeTable("names the file, line, column and field of every problem",
		func(yaml string, want ...string) {
			_, err := suites.Parse(inline, []byte(yaml))
			Expect(err).To(HaveOccurred())
			Expect(strings.Split(err.Error(), "\n")).To(Equal(want))
		},
		Entry("a benchmark report format that is not one", edit(0, "benchmark_report: csv"),
			`testdata/inline.yaml:10:19: benchmark_report: want json or yaml, got "csv", or none`),
		Entry("a metrics address that is not one", edit(0, "metrics_listen: a:b:c"),
			`testdata/inline.yaml:10:17: metrics_listen: want host:port or a port, got "a:b:c"`),
		Entry("an unknown adapter assignment", edit(0, "adapters: {sql: 1}\nadapter_assignment: cyclic"),
			`testdata/inline.yaml:11:21: adapter_assignment: want random or round-robin, got "cyclic"`),
		Entry("an adapter assignment without adapters", edit(0, "adapter_assignment: round-robin"),
			`testdata/inline.yaml:10:21: adapter_assignment: assigns the adapters of an adapters: mix, and there is none`),
		Entry("a flag that is not a boolean", edit(0, "objectives:\n  valid_load: sometimes"),
			`testdata/inline.yaml:11:15: objectives.valid_load: want true or false, got "sometimes"`),
		Entry("a number that is not one", edit(8, "  rate: fast"),
			`testdata/inline.yaml:8:9: arrival.rate: want a number, got "fast"`),
		Entry("a rate of zero", edit(8, "  rate: 0"),
			`testdata/inline.yaml:8:9: arrival.rate: want a number greater than 0, got 0`),
		Entry("rates that do not increase", edit(8, "  rates: [4, 2]"),
			`testdata/inline.yaml:8:14: arrival.rates[1]: rates must increase, but 2 follows 4`),
		Entry("no rate", edit(8, "  seed: 4"),
			`testdata/inline.yaml:7:3: arrival.rate: required for the open-loop processes: the offered rate in requests per second (or rates, a list, for a sweep)`),
		Entry("an unknown field", edit(0, "users: 4"),
			`testdata/inline.yaml:10:1: users: unknown field (known: adapter_assignment, adapter_load_timeout, adapters, api_key_env, arrival, artifacts, backend_header, backend_metrics, base_url, baseline, benchmark_report, cache, count, duration, endpoint, enforce, engine, history, images, labels, length_control, load_adapters, max_concurrency, metrics_listen, model, name, objectives, schedule_lag_tolerance, search, slo, tiers, timeouts, unjudged, warmup, workload)`),
		Entry("a field that does not apply to the process", edit(8, "  rate: 5\n  users: 4"),
			`testdata/inline.yaml:9:10: arrival.users: does not apply to the constant process`),
		Entry("an unknown process", edit(7, "  process: uniform"),
			`testdata/inline.yaml:7:12: arrival.process: unknown process "uniform" (want constant, poisson, gamma, burst, replay or closed)`),
		Entry("gamma without burstiness", edit(7, "  process: gamma"),
			`testdata/inline.yaml:7:3: arrival.burstiness: required`),
		Entry("an unknown engine", edit(3, "  kind: tensorrt"),
			`testdata/inline.yaml:3:9: engine.kind: unknown engine "tensorrt" (want one of simengine, vllm, sglang, tgi, llamacpp, ollama, or a kind given to suites.RegisterEngine)`),
		Entry("a container engine without image or model", edit(3, "  kind: vllm"),
			`testdata/inline.yaml:3:3: engine.image: required for engine vllm: the container image to run (or a process section)`,
			`testdata/inline.yaml:3:3: engine.model: required for engine vllm: the model to serve`),
		Entry("a process engine with an image too", edit(3, "  kind: vllm\n  image: i\n  model: m\n  process: {binary: vllm}"),
			`testdata/inline.yaml:6:12: engine.process: give image (a container) or process (a local process), not both`),
		Entry("a simulated engine with a process section", edit(3, "  kind: simengine\n  process: {binary: x}"),
			`testdata/inline.yaml:4:12: engine.process: the simulated engine runs in-process; it has no process section`),
		Entry("an unknown field of a process section", edit(3, "  kind: vllm\n  model: m\n  process: {binary: vllm, argv: [x]}"),
			`testdata/inline.yaml:5:27: engine.process.argv: unknown field (known: args, binary, env)`),
		Entry("an Ollama engine without a model", edit(3, "  kind: ollama"),
			`testdata/inline.yaml:3:3: engine.model: required for engine ollama: the GGUF file to serve`),
		Entry("a simulated engine flag that does not exist", edit(3, "  kind: simengine\n  args: [--warp=9]"),
			`testdata/inline.yaml:4:9: engine.args: flag provided but not defined: -warp`),
		Entry("a simulated engine flag out of range", edit(3, "  kind: simengine\n  args: [--time-scale=0]"),
			`testdata/inline.yaml:4:9: engine.args: simengine config: TimeScale must be a finite number > 0, got 0`),
		Entry("engine and base_url together", edit(0, "base_url: http://127.0.0.1:8000"),
			`testdata/inline.yaml:10:11: base_url: give either engine or base_url, not both`),
		Entry("a missing workload file", edit(5, "  file: missing.jsonl"),
			`testdata/inline.yaml:5:9: workload.file: load workload: open testdata/missing.jsonl: no such file or directory`),
		Entry("an unknown generator", edit(5, "  generator: {kind: sharegpt, count: 5}"),
			`testdata/inline.yaml:5:14: workload.generator.kind: no generator named "sharegpt" is registered (registered: fixed, incident, mixed, multi-turn, shared-prefix); register one with suites.RegisterGenerator`),
		Entry("count and duration together", edit(0, "duration: 30s"),
			`testdata/inline.yaml:10:11: duration: give either count or duration, not both`),
		Entry("a duration without a unit", edit(9, "duration: 30"),
			`testdata/inline.yaml:9:11: duration: want a duration with a unit, like 300ms or 2s; got "30"`),
		Entry("a count of zero", edit(9, "count: 0"),
			`testdata/inline.yaml:9:8: count: want at least 1, got 0`),
		Entry("an attainment above 1", edit(0, "objectives:\n  attainment: 1.5"),
			`testdata/inline.yaml:11:15: objectives.attainment: want a fraction in [0, 1], got 1.5`),
		Entry("a NaN error rate", edit(0, "objectives:\n  error_rate: .nan"),
			`testdata/inline.yaml:11:15: objectives.error_rate: want a finite number, got .nan`),
		Entry("an unknown metric and a percentile above 100", edit(0, "objectives:\n  percentiles:\n    - {metric: ttfb, p: 101, below: 1s}"),
			`testdata/inline.yaml:12:16: objectives.percentiles[0].metric: unknown metric "ttfb" (want one of chunk_gap, client_queue, e2e, itl, last_token, max_gap, schedule_lag, tpot, ttft, ttft_from_scheduled)`,
			`testdata/inline.yaml:12:25: objectives.percentiles[0].p: want a percentile in (0, 100], got 101`),
		Entry("a capacity without a sweep", edit(0, "objectives:\n  capacity: 4"),
			`testdata/inline.yaml:11:13: objectives.capacity: applies to a sweep: give arrival.rates, a list of at least two offered rates`),
		Entry("a confidence without a Wilson bound or capacity", edit(0, "objectives:\n  confidence: 0.99"),
			`testdata/inline.yaml:11:15: objectives.confidence: applies to wilson_lower or capacity, and neither is declared`),
		Entry("an invalid label", edit(0, "labels: [ok, \"a,b\"]"),
			`testdata/inline.yaml:10:14: labels[1]: "a,b" is not a valid Ginkgo label: it must not be empty or start with ':', and must not contain & | ! , ( ) /`),
		Entry("an unknown ttft_from", edit(0, "slo:\n  ttft: 1s\n  ttft_from: arrival"),
			`testdata/inline.yaml:12:14: slo.ttft_from: want sent or scheduled, got "arrival"`),
		Entry("an unknown endpoint", edit(0, "endpoint: score"),
			`testdata/inline.yaml:10:11: endpoint: unknown endpoint "score": want one of completions, chat, responses, messages, embeddings, rerank, rerank-tei, pair-score`),
		Entry("chat rows sent to embeddings", edit(0, "endpoint: embeddings"),
			`testdata/inline.yaml:5:3: workload: testdata/workload.jsonl: this workload has no inputs for the embeddings endpoint: generate one with "servebench workload generate embeddings --batch-size 1 --input-tokens 128 --output embeddings.jsonl"`),
		Entry("forced lengths sent to messages", edit(0, "endpoint: messages"),
			`testdata/inline.yaml:5:3: workload: testdata/workload.jsonl:1: ignore_eos: the Messages API cannot force an output length`),
		Entry("a TTFT objective on embeddings", strings.Replace(edit(0, "endpoint: embeddings\nslo:\n  e2e: 2s\n  ttft: 1s"), "workload.jsonl", "embeddings.jsonl", 1),
			`testdata/inline.yaml:13:9: slo.ttft: a ttft objective cannot be judged on the embeddings endpoint: it has no first token, so it defines e2e_ms only`),
		Entry("a TTFT percentile on embeddings", strings.Replace(edit(0, "endpoint: embeddings\nobjectives:\n  percentiles:\n    - {metric: ttft, p: 99, below: 1s}"), "workload.jsonl", "embeddings.jsonl", 1),
			`testdata/inline.yaml:13:16: objectives.percentiles[0].metric: metric ttft_ms is not defined by the embeddings endpoint (it has no first token)`),
		Entry("an API the engine does not serve", strings.NewReplacer("kind: simengine", "kind: tgi\n  image: ghcr.io/huggingface/text-generation-inference:3.0\n  model: m",
			"workload.jsonl", "rerank.jsonl").Replace(edit(0, "endpoint: rerank")),
			`testdata/inline.yaml:12:11: endpoint: the tgi engine does not serve the rerank API (it serves: completions, chat)`),
		Entry("a field given twice", edit(0, "count: 11"),
			`testdata/inline.yaml:10:1: count: field given twice`),
		Entry("several problems at once", edit(8, "  rate: fast")+"warmup: -1\n",
			`testdata/inline.yaml:8:9: arrival.rate: want a number, got "fast"`,
			`testdata/inline.yaml:10:9: warmup: want at least 0, got -1`),
		Entry("no name", strings.TrimPrefix(minimal, "name: minimal\n"),
			`testdata/inline.yaml:1:1: name: required`),
		Entry("an empty file", "",
			`testdata/inline.yaml:1:1: contract: the file is empty`),
		Entry("two documents", minimal+"---\nname: second\n",
			`testdata/inline.yaml:10:1: contract: a contract file holds one YAML document; put each contract in its own file`),
		Entry("a list instead of a mapping", "- name: x\n",
			`testdata/inline.yaml:1:1: : want a mapping of fields, got a list`),
	)

	It("generates a workload with a registered generator", func() {
		c, err := suites.Parse(inline, []byte(edit(5, "  generator: {kind: fixed, count: 3, seed: 9, prompt_tokens: 16, max_tokens: 4, endpoint: chat}")))
		Expect(err).NotTo(HaveOccurred())
		Expect(c.Workload.Requests).To(HaveLen(3))
		Expect(c.Workload.Requests[0].MaxTokens).To(Equal(4))
		Expect(c.WorkloadSource).To(Equal("generator fixed"))
		again, err := suites.Parse(inline, []byte(edit(5, "  generator: {kind: fixed, count: 3, seed: 9, prompt_tokens: 16, max_tokens: 4, endpoint: chat}")))
		Expect(err).NotTo(HaveOccurred())
		Expect(again.Workload.SHA256).To(Equal(c.Workload.SHA256), "the same seed gives the same bytes")
	})

	It("shapes the fixed generator's rows with a spread and a shared prefix", func() {
		c, err := suites.Parse(inline, []byte(edit(5, "  generator: {kind: fixed, count: 3, seed: 9, prompt_tokens: 16, max_tokens: 4, max_tokens_stdev: 0, prompt_tokens_stdev: 0, prefix_tokens: 6}")))
		Expect(err).NotTo(HaveOccurred())
		Expect(c.Workload.Requests).To(HaveLen(3))
		first := strings.Fields(c.Workload.Requests[0].Prompt)
		for _, r := range c.Workload.Requests {
			Expect(*r.PromptTokens).To(Equal(16))
			Expect(strings.Fields(r.Prompt)[:6]).To(Equal(first[:6]), "every prompt begins with the shared prefix")
		}
		Expect(*c.Workload.Requests[2].ReusablePromptTokens).To(Equal(6))
		_, err = suites.Parse(inline, []byte(edit(5, "  generator: {kind: fixed, count: 3, prompt_tokens: 16, prefix_tokens: 16}")))
		Expect(err).To(MatchError("testdata/inline.yaml:5:14: workload.generator: fixed: fixed shape: prefix_tokens: must be below prompt_tokens (16), got 16"))
	})

	It("reports a generator's own errors at the generator", func() {
		_, err := suites.Parse(inline, []byte(edit(5, "  generator: {kind: fixed, count: 3, colour: red}")))
		Expect(err).To(MatchError(`testdata/inline.yaml:5:14: workload.generator: fixed: json: unknown field "colour"`))
	})

	It("uses a generator registered by the user", func() {
		suites.RegisterGenerator("two-rows", func(spec suites.GeneratorSpec) (*schedule.Workload, error) {
			Expect(spec).To(Equal(suites.GeneratorSpec{Kind: "two-rows", Count: 2, Seed: 5, Params: map[string]any{"topic": "primes"}}))
			return schedule.ParseWorkload("two-rows", []byte(`{"id": "a", "prompt": "primes", "max_tokens": 4}`+"\n"+`{"id": "b", "prompt": "more primes", "max_tokens": 4}`+"\n"))
		})
		c, err := suites.Parse(inline, []byte(edit(5, "  generator: {kind: two-rows, count: 2, seed: 5, topic: primes}")))
		Expect(err).NotTo(HaveOccurred())
		Expect(c.Workload.Requests).To(HaveLen(2))
	})
})

var _ = Describe("LoadDir", func() {
	It("loads every contract in name order", func() {
		cs, err := suites.LoadDir("testdata/contractsuite")
		Expect(err).NotTo(HaveOccurred())
		names := make([]string, len(cs))
		for i, c := range cs {
			names[i] = c.Name
		}
		Expect(names).To(Equal([]string{"simengine-against-baseline", "simengine-meetable", "simengine-sweep", "simengine-unmeetable"}))
	})

	It("rejects two contracts with one name, naming both files", func() {
		dir := GinkgoT().TempDir()
		Expect(os.WriteFile(filepath.Join(dir, "workload.jsonl"), []byte(`{"prompt": "hi", "max_tokens": 2}`+"\n"), 0o644)).To(Succeed())
		Expect(os.WriteFile(filepath.Join(dir, "a.yaml"), []byte(minimal), 0o644)).To(Succeed())
		Expect(os.WriteFile(filepath.Join(dir, "b.yml"), []byte(minimal), 0o644)).To(Succeed())
		_, err := suites.LoadDir(dir)
		Expect(err).To(MatchError(filepath.Join(dir, "b.yml") + `: name: "minimal" is already the name of the contract in ` + filepath.Join(dir, "a.yaml")))
	})

	It("rejects a directory without contracts", func() {
		_, err := suites.LoadDir(GinkgoT().TempDir())
		Expect(err).To(MatchError(ContainSubstring("no *.yaml or *.yml file in")))
	})
})

var _ = Describe("README.md", func() {
	It("shows testdata/full.yaml, the example the tests load, verbatim", func() {
		readme, err := os.ReadFile("README.md")
		Expect(err).NotTo(HaveOccurred())
		full, err := os.ReadFile("testdata/full.yaml")
		Expect(err).NotTo(HaveOccurred())
		Expect(string(readme)).To(ContainSubstring("```yaml\n" + string(full) + "```"))
	})
})
