// Package servebench is the measurement core of servebench: it turns a
// frozen workload and a seeded arrival process into a realized schedule,
// replays that schedule open-loop against an OpenAI-compatible streaming
// endpoint, writes one outcome record per attempt as each request ends, and
// scores the records strictly into a Report.
//
// The entry points: Run (or Start, for a run polled while it goes) with a
// RunConfig built from LoadWorkload, RunConfig.SetArrival and NewClient;
// RunSweep for several offered rates; ScoreRunDir to score a saved run
// again; and the Report's WriteText, WriteHTML and Percentile. The matchers
// package turns a Report into a test verdict.
//
// The flow of data, each arrow a value or a file that can be saved and fed to
// the next stage alone:
//
//	Workload (hashed bytes) + Arrival (seeded) -> Schedule (saved, hashed before the first send)
//	Schedule -> Runner (open loop, optional client cap) -> Client (SSE) -> Outcome records (JSONL)
//	Outcomes + Schedule + SLO -> Score -> Report -> matchers, exit codes, report entries
//
// # Where each stage lives
//
// Each stage, its entry point and the file that holds it:
//
//	stage      entry point                               file
//	workload   LoadWorkload, ParseWorkload               workload.go
//	arrival    NewArrival (ArrivalSpec), NewReplay       arrival.go, arrival_spec.go, arrival_replay.go
//	           RunConfig.SetArrival (any Process)        arrival_set.go, arrival_process.go
//	schedule   BuildSchedule (SchedulePlan),             schedule_build.go (Schedule: schedule.go)
//	           WriteSchedule, ReadSchedule
//	dispatch   Run, Start (RunConfig, LiveRun)           run.go, live.go; the open/closed loop in dispatcher.go
//	           RunSweep (SweepPlan)                      sweep_run.go
//	observe    Observer (set in RunConfig)               observer.go
//	send       Sender (set in RunConfig)                 sender.go
//	client     Client.Do (a Sender)                      client.go, client_*.go (SSE framing: package sse)
//	outcomes   Outcome, ReadOutcomes                     outcome.go, outcome_writer.go
//	score      Score, ScoreRunDir, ScoreFiles            score_outcomes.go, score_run.go, trace.go; score_*.go
//	report     Report, Report.WriteText,                 report.go, report_text.go,
//	           Report.WriteHTML, Report.Percentile       report_html.go, report_query.go
//
// The statistics (Wilson bound, normal quantile, percentiles) are in package
// stats; the Gomega matchers over a Report in package matchers, YAML
// contracts in package suites, and the command line in cmd/servebench.
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
