package matchers_test

import (
	"fmt"
	"time"

	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/servebench/report"
	"github.com/servebench/servebench/servebench/stats"
)

// f returns a pointer to v, for the optional fields of a literal report.
func f(v float64) *float64 { return &v }

// statusCounts fills every status with zero, then sets the given counts.
func statusCounts(set map[record.Status]int) map[record.Status]int {
	out := map[record.Status]int{}
	for _, s := range record.Statuses() {
		out[s] = set[s]
	}
	return out
}

// sixRequests is a six-request cohort scored by hand against TTFT <= 300 ms,
// TPOT <= 80 ms and E2E <= 3000 ms over the arrival window [0, 2000) ms:
//
//	r01 success  sent 0     TTFT 240  TPOT 60  E2E 500   qualified
//	r02 success  sent 302   TTFT 180  TPOT 50  E2E 400   qualified
//	r03 success  sent 701   TTFT 200  TPOT 70  E2E 600   qualified
//	r04 success  sent 765   TTFT 350  TPOT 60  E2E 800   fails ttft (350 > 300)
//	r05 success  sent 1200  TTFT 220  TPOT 40  E2E 450   fails quality
//	r06 timeout  sent 1500                     E2E 1000  fails status
//
// Offered 6, protocol successes 5, qualified 3: attainment 3/6 = 0.5, error
// rate 1/6. The last terminal is r06 at 2500 ms, so the horizon is 2500 ms:
// qualified rate 3/2.5 = 1.2 req/s, offered rate 6/2 = 3 req/s. The largest
// schedule lag is r04's 15 ms, within the 20 ms tolerance.
func sixRequests() *report.Report {
	return &report.Report{
		Schema:            report.ReportSchema,
		Offered:           6,
		ProtocolSuccesses: 5,
		Qualified:         3,
		Attainment:        f(0.5),
		StatusCounts:      statusCounts(map[record.Status]int{record.StatusSuccess: 5, record.StatusTimeout: 1}),
		ReasonCounts:      map[report.Reason]int{report.ReasonStatus: 1, report.ReasonQuality: 1, report.ReasonTTFT: 1},
		WindowMS:          [2]float64{0, 2000},
		HorizonMS:         2500,
		OfferedRPS:        f(3),
		SuccessfulRPS:     f(2),
		QualifiedRPS:      f(1.2),

		ScheduleLagToleranceMS: 20,
		MaxScheduleLagMS:       f(15),
		Valid:                  true,
		SLO:                    report.SLO{TTFT: 300 * time.Millisecond, TPOT: 80 * time.Millisecond, E2E: 3000 * time.Millisecond},
		PercentileMethod:       stats.NearestRank,
		Requests: []report.RequestScore{
			success("r01", 0, 0, 240, 60, 500),
			success("r02", 300, 302, 180, 50, 400),
			success("r03", 700, 701, 200, 70, 600),
			unqualified(success("r04", 750, 765, 350, 60, 800), report.ReasonTTFT),
			withQuality(unqualified(success("r05", 1200, 1200, 220, 40, 450), report.ReasonQuality), "expected \"Paris\" in the answer"),
			{
				ID: "r06", Status: record.StatusTimeout, ScheduledMS: 1500, SentMS: f(1500), ScheduleLagMS: f(0),
				E2EMS: f(1000), Quality: "unscored", Reasons: []report.Reason{report.ReasonStatus},
				Error: "no first token within 1000 ms",
			},
		},
	}
}

// success is a qualified successful request with the given times in ms.
func success(id string, scheduled, sent, ttft, tpot, e2e float64) report.RequestScore {
	return report.RequestScore{
		ID: id, Status: record.StatusSuccess, ScheduledMS: scheduled, SentMS: f(sent),
		ScheduleLagMS: f(sent - scheduled), TTFTMS: f(ttft), TTFTFromScheduledMS: f(sent - scheduled + ttft),
		TPOTMS: f(tpot), E2EMS: f(e2e), Quality: "unscored", Qualified: true, Reasons: []report.Reason{},
	}
}

// unqualified marks a request as failing the given criteria.
func unqualified(rs report.RequestScore, reasons ...report.Reason) report.RequestScore {
	rs.Qualified = false
	rs.Reasons = reasons
	return rs
}

// withQuality marks a request's quality as failed with evidence.
func withQuality(rs report.RequestScore, evidence string) report.RequestScore {
	rs.Quality = "fail"
	rs.QualityEvidence = evidence
	return rs
}

// undelivered is sixRequests with its load not delivered: r04 sent at
// 800 ms (50 ms late against a 20 ms tolerance) and r06 never sent.
func undelivered() *report.Report {
	r := sixRequests()
	r.Requests[3].SentMS = f(800)
	r.Requests[3].ScheduleLagMS = f(50)
	r.Requests[5] = report.RequestScore{
		ID: "r06", Status: record.StatusNotSent, ScheduledMS: 1500, Quality: "unscored",
		Reasons: []report.Reason{report.ReasonStatus}, Error: "run cancelled before send",
	}
	r.StatusCounts = statusCounts(map[record.Status]int{record.StatusSuccess: 5, record.StatusNotSent: 1})
	r.MaxScheduleLagMS = f(50)
	r.LateCount = 1
	r.Valid = false
	r.InvalidReasons = []string{"1 request not sent", "1 request sent more than 20 ms after its scheduled time"}
	return r
}

// cohort is a report of n offered requests of which qualified qualified;
// the others failed with an HTTP 500, so that the counts stay consistent.
func cohort(qualified, n int) *report.Report {
	r := &report.Report{
		Schema:            report.ReportSchema,
		Offered:           n,
		ProtocolSuccesses: qualified,
		Qualified:         qualified,
		Attainment:        f(float64(qualified) / float64(n)),
		StatusCounts:      statusCounts(map[record.Status]int{record.StatusSuccess: qualified, record.StatusHTTPError: n - qualified}),
		ReasonCounts:      map[report.Reason]int{},
		WindowMS:          [2]float64{0, float64(n) * 100},
		HorizonMS:         float64(n)*100 + 400,

		ScheduleLagToleranceMS: 20,
		MaxScheduleLagMS:       f(1),
		Valid:                  true,
	}
	if n > qualified {
		r.ReasonCounts[report.ReasonStatus] = n - qualified
	}
	for i := range n {
		at := float64(i) * 100
		rs := success(fmt.Sprintf("q%03d", i+1), at, at+1, 100, 20, 400)
		if i >= qualified {
			rs = report.RequestScore{
				ID: rs.ID, Status: record.StatusHTTPError, ScheduledMS: at, SentMS: f(at + 1), ScheduleLagMS: f(1),
				E2EMS: f(5), Quality: "unscored", Reasons: []report.Reason{report.ReasonStatus}, Error: "HTTP 500: overloaded",
			}
		}
		r.Requests = append(r.Requests, rs)
	}
	return r
}
