// Package schedule turns a frozen workload and a seeded arrival process into
// the realized schedule a run replays: every request's ID, row and arrival
// time, saved and hashed before the first send.
//
// Entry points:
//
//	LoadWorkload, ParseWorkload   read a workload file (Workload, one record.Request per row)
//	Workload.EntryRequest         what one scheduled entry sends (its row, or EntryRequests' variation)
//	NewArrival (ArrivalSpec)      an open-loop arrival process; NewReplay keeps a trace's times
//	Build (Plan)                  the realized Schedule; Realize for its streamed form
//	Write, Read, NewEncoder       schedule.json and its SHA-256
//	ReadCompact                   the allocation-light view the scorer streams against
//	ParseShard, Schedule.ForShard one shard's share of a schedule, by conversation
//	ParseTurnHistory (TurnHistory) what a conversation's later turns carry: engine or workload history
//
// A workload row that is malformed is an error naming the file, the line and
// the field. The package depends only on record: dispatching, sending and
// scoring all come after it in the flow.
package schedule
