package record

import (
	"context"
	"time"
)

// The files a run directory holds.
const (
	ScheduleFile = "schedule.json"
	OutcomesFile = "outcomes.jsonl"
	WarmupFile   = "warmup.jsonl"
	ReportFile   = "report.json"
	// RequestsFile holds a run's request entries, one RequestScore per line.
	RequestsFile = "requests.jsonl"
	// ReportHTMLFile is the report as a self-contained HTML page.
	ReportHTMLFile = "report.html"
	// ReportTextFile is the full text report, the one a run prints with
	// --report full.
	ReportTextFile = "report.txt"
)

// Sender sends one request and records how it went: the seam between the
// measurement core (schedule, dispatcher, warmup, scorer) and a wire
// protocol. Client, the OpenAI-compatible streaming client, is the Sender
// servebench ships; another protocol, or a wrapper that adds headers or
// tracing around a Client, plugs in through RunConfig.Sender.
//
// Do is called concurrently, once per request. The caller has set out.ID,
// Attempt, Class, ScheduledMS and SlotMS; Do fills in the rest on the
// monotonic clock since start (SentMS, FirstMS, LastMS, TerminalMS, counts,
// Status) and returns only when out holds a terminal Status and TerminalMS,
// also when ctx ends. requestID identifies the attempt on the wire.
type Sender interface {
	Do(ctx context.Context, start time.Time, req *Request, requestID string, out *Outcome)
}
