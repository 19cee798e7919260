package schedule

import "github.com/servebench/servebench/servebench/record"

// Schema names the version of the Schedule's JSON form.
const Schema = "servebench.schedule/v1"

// Schedule is a realized schedule: which request arrives when. It is
// computed once from a workload and an arrival process, written to
// schedule.json and hashed before the first request is sent, and it is all
// the scorer needs (with the outcomes) to re-score a run.
type Schedule struct {
	// Schema is Schema.
	Schema string `json:"schema"`
	// RunID is the run's UUIDv7.
	RunID string `json:"run_id"`
	// Arrival declares the process that realized the schedule.
	Arrival ArrivalSpec `json:"arrival"`
	// Mode is open or closed loop.
	Mode Mode `json:"mode"`
	// WindowMS is the half-open arrival window [start, end) of the cohort.
	WindowMS [2]float64 `json:"window_ms"`
	// WindowCoversSessions says that the window's end is only the earliest
	// it may close: the schedule replays sessions with no duration, so the
	// window closes when the run ends, after the last round of every
	// session (rounds are due at their previous round's end plus the tool
	// wait, known only then).
	WindowCoversSessions bool `json:"window_covers_sessions,omitempty"`
	// ScheduleLagToleranceMS is the declared lag tolerance (default 20).
	ScheduleLagToleranceMS float64 `json:"schedule_lag_tolerance_ms"`
	// WorkloadSHA256 is the hash of the workload file's exact bytes.
	WorkloadSHA256 string `json:"workload_sha256"`
	// Workload names the workload file.
	Workload string `json:"workload"`
	// Notes records facts a reader must know (e.g. that time scaling
	// changed the duration).
	Notes []string `json:"notes,omitempty"`
	// Shard is set when this run sent one shard's share of the schedule;
	// Entries still lists the whole schedule (see Schedule.OwnShare).
	Shard *ShardHead `json:"shard,omitempty"`
	// Adapters is the LoRA adapter mix (name → weight, normalised to sum
	// to 1) each entry's Adapter was drawn from; nil without a mix.
	Adapters map[string]float64 `json:"adapters,omitempty"`
	// AdapterAssignment is how the entries got their adapters from the
	// mix: "random" (drawn from the seed) or "round-robin"; empty
	// without a mix.
	AdapterAssignment string `json:"adapter_assignment,omitempty"`
	// whole is set on a schedule OwnShare cut to its shard's share: the
	// schedule it was cut from.
	whole *Schedule
	// Entries lists the cohort's requests in arrival order.
	Entries []Entry `json:"entries"`
}

// Entry is one scheduled request of the cohort.
type Entry struct {
	// ID is unique in the schedule: the row's ID, with "#k" appended for
	// the k-th repetition (k >= 2) when a workload is cycled.
	ID string `json:"id"`
	// Row is the workload row's index (0-based).
	Row int `json:"row"`
	// Class is the row's class.
	Class string `json:"class,omitempty"`
	// Adapter is the LoRA adapter the request is sent to, drawn from the
	// schedule's mix (BaseAdapter for the base model); empty without a
	// mix. The turns of a conversation share one.
	Adapter string `json:"adapter,omitempty"`
	// ScheduledMS is the arrival time. In closed loop, and for turns after
	// the first in a conversation, it is the earliest time the request may
	// be sent, fixed at run time and recorded in the outcome.
	ScheduledMS float64 `json:"scheduled_ms"`
	// DependsOn names the entry (the previous turn) that must end first.
	DependsOn string `json:"depends_on,omitempty"`
	// ThinkMS is the wait after DependsOn ended.
	ThinkMS float64 `json:"think_ms,omitempty"`
	// Expect is the row's quality expectation, copied so that re-scoring
	// needs only the schedule and the outcomes.
	Expect *record.Expectation `json:"expect,omitempty"`
	// MaxTokens and IgnoreEOS copy the row's output policy.
	MaxTokens int  `json:"max_tokens"`
	IgnoreEOS bool `json:"ignore_eos,omitempty"`
	// PromptTokens copies the prompt length the row declared, so that the
	// prompt-token audit needs only the schedule and the outcomes.
	PromptTokens *int `json:"prompt_tokens,omitempty"`
	// CarriedHistory marks a later turn whose row declared its prompt
	// length and carries assistant messages: they stand for earlier
	// answers, which engine history replaces, so the declared length is
	// not what was sent and the audit leaves the turn out.
	CarriedHistory bool `json:"carried_history,omitempty"`
}
