// Package scorer holds what the run and its live metrics use of package
// score beyond score's public API: the torn-line marker an outcome file's
// reader shares with the merge of shards, one record's latencies by the
// scorer's rules, and the streamed run-directory scorer that also counts
// the attempts sent inside the window.
//
// Package score installs Measure and the counting scorer when it is
// initialised, so a caller imports score as well (the run and live metrics
// do).
package scorer
