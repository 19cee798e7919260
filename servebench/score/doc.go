// Package score turns outcome records into a report.Report, strictly: every
// request scheduled in the arrival window is offered, whatever became of
// it, and a record that breaks the clock rules is an error naming its file,
// line and field rather than a request quietly dropped.
//
// Entry points:
//
//	Outcomes (Options)      score a schedule and its records in memory
//	RunDir, RunDirTo        score a saved run directory again (RunDirTo streams the per-request rows)
//	TraceFiles, Trace       score a trace and its events (the seed format)
//	CheckObjectives         refuse an objective the endpoint does not define
//
// A request qualifies when each of its measured values is at most its
// objective: the bounds are inclusive.
package score
