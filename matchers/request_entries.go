package matchers

import "github.com/servebench/servebench/servebench/report"

// requestEntries is a report's request entries for a failure message:
// those it holds, or those of its requests.jsonl (a run's report keeps its
// entries there). A file that cannot be read gives none, and the message
// lists no examples.
func requestEntries(r *report.Report) []report.RequestScore {
	if len(r.Requests) > 0 {
		return r.Requests
	}
	var all []report.RequestScore
	if err := r.EachRequest(func(rs *report.RequestScore) error { all = append(all, *rs); return nil }); err != nil {
		return nil
	}
	return all
}
