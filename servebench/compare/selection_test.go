package compare

import (
	"math"
	"strings"
	"testing"

	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/servebench/report"
)

// adapterRound is one round of 40 requests, 20 to adapter sql and 20 to
// chat, whose i-th request of each (i = 1…20) has TTFT 10·i ms, times
// sqlFactor for sql; chat's first chatFailed requests fail instead. Its
// breakdown holds the counts the scorer would give.
func adapterRound(sqlFactor float64, chatFailed int) *report.Report {
	r := &report.Report{Schema: report.ReportSchema, Valid: true, Inputs: report.Inputs{WorkloadSHA256: "w1"},
		Percentiles: map[record.Metric]report.Distribution{}}
	values := map[string]report.BreakdownValue{}
	for _, adapter := range []string{"sql", "chat"} {
		v := report.BreakdownValue{}
		for i := 1; i <= 20; i++ {
			q := report.RequestScore{Adapter: adapter, Status: record.StatusSuccess, Qualified: true}
			if adapter == "chat" && i <= chatFailed {
				q.Status, q.Qualified = record.StatusHTTPError, false
			} else {
				ttft := 10 * float64(i)
				if adapter == "sql" {
					ttft *= sqlFactor
				}
				q.TTFTMS = fptr(ttft)
				v.TTFT.N++
				r.ProtocolSuccesses++
			}
			v.Offered++
			if q.Qualified {
				v.Qualified++
				r.Qualified++
			}
			r.Requests = append(r.Requests, q)
		}
		values[adapter] = v
	}
	r.Offered = len(r.Requests)
	r.Percentiles[record.MetricTTFT] = report.Distribution{N: r.ProtocolSuccesses}
	r.Breakdown = map[string]*report.BreakdownDimension{"adapter": {Values: values}}
	a := float64(r.Qualified) / float64(r.Offered)
	r.Attainment = &a
	return r
}

func rounds(n int, round func() *report.Report) []*report.Report {
	out := make([]*report.Report, 0, n)
	for range n {
		out = append(out, round())
	}
	return out
}

// A statistic narrowed to one adapter is computed over that adapter's
// requests alone. The candidate's sql requests are twice as slow: sql's
// TTFT p50 (nearest rank 10 of 20) goes from 100 to 200 ms, a regression,
// while chat's stays at 100 ms. Then four of chat's 20 requests fail in
// the candidate: chat's error rate goes from 0 to 4/20 = 0.2 and sql's
// stays 0, while the whole run's is 4/40 = 0.1; chat's attainment drops
// from 1 to 0.8.
func TestSelectionComparesOneBreakdownValue(t *testing.T) {
	base := rounds(4, func() *report.Report { return adapterRound(1, 0) })
	slow := rounds(4, func() *report.Report { return adapterRound(2, 0) })
	c, err := Reports(base, slow, Options{Tolerances: []Tolerance{
		{"ttft_p50[adapter=sql]", 0.10}, {"ttft_p50[adapter=chat]", 0.10}}})
	if err != nil {
		t.Fatal(err)
	}
	sql, chat := c.Comparisons[0], c.Comparisons[1]
	if sql.Name != "ttft_p50[adapter=sql]" || sql.Baseline != 100 || sql.Candidate != 200 || sql.Verdict != Regression {
		t.Errorf("sql: %s %v → %v, %s; want ttft_p50[adapter=sql] 100 → 200, regression", sql.Name, sql.Baseline, sql.Candidate, sql.Verdict)
	}
	// chat's rounds are identical, but each round's median of 20 requests
	// has its own sampling noise: its order-statistic interval runs from
	// rank 5 (50 ms) to rank 15 (150 ms), 2√5 rank standard deviations, so
	// the log standard error of one side's round is ln 3/(2√5) and of a
	// round's difference √2 times that; over 4 rounds the Hartung–Knapp
	// standard error (q = 0, raised to 1) is ln 3/√40. The lower end
	// (two comparisons at 95 %: one-sided at 97.5 %, t₃ = 3.182446) lies
	// 3.182446 standard errors below the change, the upper end (one-sided
	// at 95 %, no correction for no_regression: t₃ = 2.353363) 2.353363
	// above it.
	half := 3.182446305284263 * math.Log(3) / math.Sqrt(40)
	upper := 2.3533634348018264 * math.Log(3) / math.Sqrt(40)
	if chat.Baseline != 100 || chat.Candidate != 100 || chat.Verdict != Inconclusive {
		t.Errorf("chat: %v → %v, %s; want 100 → 100, inconclusive", chat.Baseline, chat.Candidate, chat.Verdict)
	}
	near(t, "chat interval high", chat.CIHigh, math.Expm1(upper), 1e-6)
	near(t, "chat interval low", chat.CILow, math.Expm1(-half), 1e-6)

	failing := rounds(4, func() *report.Report { return adapterRound(1, 4) })
	c, err = Reports(base, failing, Options{Tolerances: []Tolerance{
		{"error_rate[adapter=chat]", 0.01}, {"error_rate[adapter=sql]", 0.01}, {"error_rate", 0.01},
		{"attainment[adapter=chat]", 0.01}}})
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range [][2]float64{{0, 0.2}, {0, 0}, {0, 0.1}, {1, 0.8}} {
		m := c.Comparisons[i]
		near(t, m.Name+" baseline", m.Baseline, want[0], 1e-12)
		near(t, m.Name+" candidate", m.Candidate, want[1], 1e-12)
	}
	if v := c.Comparisons[0].Verdict; v != Regression {
		t.Errorf("error_rate[adapter=chat]: %s, want regression", v)
	}
}

func TestSelectionNamesAreChecked(t *testing.T) {
	tol, err := ParseTolerance("ttft_p99[adapter=sql]=10%")
	if err != nil || tol.Name != "ttft_p99[adapter=sql]" || tol.Value != 0.10 {
		t.Errorf("ParseTolerance: %+v, %v", tol, err)
	}
	if tol, err := ParseTolerance("error_rate[modality=image]=0.02"); err != nil || tol.Name != "error_rate[modality=image]" || tol.Value != 0.02 {
		t.Errorf("ParseTolerance: %+v, %v", tol, err)
	}
	for in, want := range map[string]string{
		"ttft_p99[adapter]=10%":       "NAME[DIMENSION=VALUE]",
		"ttft_p99[gpu=a100]=10%":      `unknown breakdown dimension "gpu": want one of class, backend, adapter`,
		"qualified_rps[adapter=a]=5%": "qualified_rps is a figure of the whole run",
		"itl_p99[adapter=a]=5%":       "itl_p99 is a figure of the whole run",
		"ttft_p99[adapter=sql]=0":     "not a positive fraction",
	} {
		if _, err := ParseTolerance(in); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("ParseTolerance(%q) = %v, want an error with %q", in, err, want)
		}
	}
}

// A value the run does not have, and a run that kept no request entries,
// are errors that say so.
func TestSelectionNeedsTheValueAndTheEntries(t *testing.T) {
	base := rounds(2, func() *report.Report { return adapterRound(1, 0) })
	_, err := Reports(base, base, Options{Tolerances: []Tolerance{{"attainment[adapter=rag]", 0.01}}})
	if err == nil || !strings.Contains(err.Error(), `the run has no request with adapter "rag" (its values: chat, sql)`) {
		t.Errorf("missing value: %v", err)
	}
	bare := rounds(2, func() *report.Report { r := adapterRound(1, 0); r.Requests = nil; return r })
	_, err = Reports(bare, bare, Options{Tolerances: []Tolerance{{"attainment[adapter=sql]", 0.01}}})
	if err == nil || !strings.Contains(err.Error(), "needs the run's request entries") {
		t.Errorf("no entries: %v", err)
	}
}
