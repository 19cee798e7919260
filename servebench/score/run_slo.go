package score

import "github.com/servebench/servebench/servebench/report"

// keepUnsetObjectives fills each objective that given leaves at zero from
// the run's own SLO, so that re-scoring with one new bound keeps the
// others. TTFTFromScheduled holds when either declares it.
func keepUnsetObjectives(given, run report.SLO) report.SLO {
	if given.TTFT == 0 {
		given.TTFT = run.TTFT
	}
	if given.TPOT == 0 {
		given.TPOT = run.TPOT
	}
	if given.E2E == 0 {
		given.E2E = run.E2E
	}
	given.TTFTFromScheduled = given.TTFTFromScheduled || run.TTFTFromScheduled
	return given
}
