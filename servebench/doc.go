// Package servebench runs a measurement: it turns a frozen workload and a
// seeded arrival process into a realized schedule, replays that schedule
// open-loop (or as closed-loop users) against an engine through a
// record.Sender, writes one outcome record per attempt as each request
// ends, and scores the records strictly into a report.Report.
//
// A spec needs this package, package matchers and its engine's package:
//
//	workload, err := servebench.LoadWorkload("workloads/chat.jsonl")
//	result, err := servebench.Run(ctx, servebench.RunConfig{
//		Workload: workload,
//		Arrival:  servebench.Poisson(20, 1), // or Constant(rate), Gamma(rate, shape, seed)
//		Count:    60,
//		Client:   servebench.NewClient(baseURL, model),
//		Score:    servebench.Scoring{SLO: servebench.SLO{TTFT: time.Second}},
//	})
//	Expect(result).To(matchers.HaveLatencyPercentileBelow(servebench.TTFT, 99, time.Second))
//	AddReportEntry("run", result)
//
// Run (or Start, for a run polled while it goes) checks the configuration
// before any load: a bad arrival rate is reported there, naming the field.
// PreflightRun checks the engine first; MergeShards joins the shards of one
// run. score.RunDir scores a saved run again.
//
// The flow of data, each arrow a value or a file that can be saved and fed to
// the next stage alone:
//
//	Workload (hashed bytes) + Arrival (seeded) -> Schedule (saved, hashed before the first send)
//	Schedule -> dispatcher (open loop, optional client cap) -> Sender (SSE) -> Outcome records (JSONL)
//	Outcomes + Schedule + SLO -> score -> Report -> matchers, exit codes, report entries
//
// # Where each stage lives
//
// One package per stage, each importing only the stages before it:
//
//	stage           package                    entry points
//	vocabulary      servebench/record          Request, Outcome, Status, Sender, Expectation, Endpoint, APIOf, CreateWriter
//	schedule        servebench/schedule        LoadWorkload, NewArrival, Build, Write, Read
//	media           servebench/media           ParseImageSizes, BuildPool, Pool.Attach, Pool.Serve
//	protocol        servebench/openai          NewClient, Client.Do, CheckWorkload, Preflight
//	report model    servebench/report          Report, Report.Percentile, Report.LoadDelivered, ReadFile
//	rendering       servebench/report/render   Text, HTML, HTMLFile
//	score           servebench/score           Outcomes, RunDir, RunDirTo, TraceFiles
//	engine metrics  servebench/enginemetrics   ScrapeOnce, Between, StartSampler
//	run             servebench                 Run, Start, RunConfig, LiveRun, MergeShards, Observer
//	capacity        servebench/capacity        RunSweep, AutoRates, AutoUsers, Select
//	A/B rounds      servebench/ab              Run, Config, Result
//
// SSE framing is in package sse, the statistics (Wilson bound, normal
// quantile, percentiles) in package stats, A/B comparison in compare, GPU
// sampling in telemetry; the Gomega matchers over a Report are in package
// matchers, YAML contracts in package suites, and the command line in
// cmd/servebench. Each package's doc.go leads with its own entry points.
//
// # Clocks
//
// Every time in a record is milliseconds (float, microsecond resolution) on
// the client's monotonic clock since the run's start instant:
//
//	scheduled  a  when the schedule says the request arrives
//	slot       q  when a client concurrency slot was granted (= a without a cap)
//	sent       d  when the HTTP request was handed to the connection
//	first      f  first event carrying non-empty visible text
//	last       l  last event carrying non-empty visible text
//	terminal   e  stream end: [DONE], an error, a timeout or a cancellation
//
// Schedule lag is d - a; TTFT is f - d (reported beside f - a); TPOT is
// (l - f)/(n - 1) for n > 1 output tokens and at least two content events;
// E2E is e - d. A metric that is undefined is nil, never zero.
//
// # Accounting
//
// Every scheduled request ends in exactly one terminal record, also on
// cancellation: unsent requests are recorded as not_sent. Attainment is
// qualified / offered, where offered counts every request scheduled in the
// arrival window, whatever became of it.
package servebench
