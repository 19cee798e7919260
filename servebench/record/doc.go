// Package record is the vocabulary every stage of servebench shares: the
// workload row a run sends (Request, with its Expectation), the one
// terminal record each scheduled request ends in (Outcome, with its
// Status), the Sender seam between the dispatcher and a wire protocol, the
// catalog of the APIs a run can talk to (Endpoint, API), and the names of
// the files a run directory holds.
//
// Entry points:
//
//	Request, Message, TextInput    one workload row, as the workload file gives it
//	ContentPart, ImageURL, MediaOf a chat message's image and audio parts, and what a request sends
//	Expectation, Verdict, ToolCall what a row says a good response is, and the judge's finding
//	Outcome, Status, TimeoutKind   one attempt's terminal record and its clocks
//	Sender                         what a protocol client implements
//	Endpoint, APIOf, ParseEndpoint the API catalog: each endpoint's path, metrics, rates and failures
//	CreateWriter                   write outcomes as requests end (Writer)
//	ReadOutcomes, DecodeFast       read them back (DecodeFast: the allocation-free path)
//	ScheduleFile, OutcomesFile...  the run directory's file names
//
// Every time in an Outcome is milliseconds (Millis) on the client's
// monotonic clock since the run's start instant; a metric that is not
// defined is nil, never zero. The package imports no other servebench
// package (quality judges an Expectation; record only holds it), so the
// stages above it (schedule, protocol client, scoring, reports) can all
// depend on it without depending on each other.
package record
