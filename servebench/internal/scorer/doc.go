// Package scorer holds what the run, its live metrics and the merge of
// shards use of the scorer beyond package score's public API: the
// torn-line marker an outcome file's reader shares with the merge, and one
// record's latencies by the scorer's rules.
//
// Package score installs Measure when it is initialised (the rules live
// with the scorer's record type), so a caller of Measure imports score as
// well; the run and the live metrics do.
package scorer
