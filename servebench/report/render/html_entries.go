package render

import (
	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/servebench/report"
)

// htmlEntries is what the page takes from the request entries in one pass
// over them: the successes' TTFT and E2E for their CDFs (ttft nil when the
// endpoint defines no TTFT), the scatter's frame and series, and the worst
// unqualified requests. Each is bounded in memory whatever the number of
// entries, which may be streamed from requests.jsonl.
type htmlEntries struct {
	ttft, e2e           *cdfSample
	ttftBound, e2eBound *cdfBoundSpec
	scatter             scatterSpan
	worst               worstRequests
}

// readHTMLEntries reads the report's request entries once for every part
// of the page that needs them but the scatter's marks.
func readHTMLEntries(r *report.Report) (*htmlEntries, error) {
	h := &htmlEntries{scatter: newScatterSpan(r), worst: worstRequests{slo: r.SLO}}
	if defines(r, record.MetricTTFT) {
		h.ttftBound = cdfBound(record.Millis(r.SLO.TTFT), !r.SLO.TTFTFromScheduled, "TTFT bound")
		h.ttft = newCDFSample(h.ttftBound)
	}
	h.e2eBound = cdfBound(record.Millis(r.SLO.E2E), true, "E2E bound")
	h.e2e = newCDFSample(h.e2eBound)
	err := r.EachRequest(func(q *report.RequestScore) error {
		if q.Status == record.StatusSuccess {
			if h.ttft != nil {
				addFinite(h.ttft, q.TTFTMS)
			}
			addFinite(h.e2e, q.E2EMS)
		}
		h.scatter.add(q)
		h.worst.add(q)
		return nil
	})
	return h, err
}

// addFinite adds a defined, finite value to s.
func addFinite(s *cdfSample, v *float64) {
	if v != nil && finite(*v) {
		s.add(*v)
	}
}
