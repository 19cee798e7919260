// Package capacity finds how much load an engine carries within its
// objectives: sweeps of offered rates or of closed-loop users, each point a
// whole run, judged by a Rule into pass, fail, inconclusive,
// generator_bound or interrupted, and the knee that a release gate
// asserts.
//
// Entry points:
//
//	RunSweep (Plan), RunBatchSweep  sweep offered rates, or embeddings/rerank batch sizes
//	AutoRates, AutoUsers            climb, then bisect, to the knee
//	Select, SelectConcurrency       the highest passing rate or user count (Selection, ConcurrencySelection)
//	RateVerdicts, UserVerdicts      every point's verdict with its reasons
//	BracketOf                       the interval the knee lies in, with its confidence
//
// A point whose load the client could not deliver is generator_bound:
// neither a pass nor the failing neighbour of the knee.
package capacity
