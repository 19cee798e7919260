package score

import (
	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/servebench/report"
	"github.com/servebench/servebench/servebench/stats"
)

// coldStart sets a breakdown value's cold-start figures: its first request
// sent in the run (the earliest send; the earlier scheduled on a tie) is
// the cold one, and the TTFTs of the other successful requests are the
// warm distribution.
func coldStart(bv *report.BreakdownValue, rs []*report.RequestScore, method stats.PercentileMethod) {
	cold := -1
	for i, r := range rs {
		if r.SentMS == nil {
			continue
		}
		if cold < 0 || *r.SentMS < *rs[cold].SentMS ||
			(*r.SentMS == *rs[cold].SentMS && r.ScheduledMS < rs[cold].ScheduledMS) {
			cold = i
		}
	}
	var warm []float64
	for i, r := range rs {
		if i == cold || r.Status != record.StatusSuccess {
			continue
		}
		warm = appendDefined(warm, r.TTFTMS)
	}
	if cold >= 0 {
		bv.ColdRequest = rs[cold].ID
		if rs[cold].Status == record.StatusSuccess && rs[cold].TTFTMS != nil {
			bv.ColdTTFTMS = new(*rs[cold].TTFTMS)
		}
	}
	d := sampleDistribution(warm, method, "successful requests of this value but its first sent: first content − sent")
	bv.WarmTTFT = &d
}
