package sweepreport_test

import (
	"fmt"

	"github.com/servebench/servebench/servebench/capacity"
	"github.com/servebench/servebench/servebench/report"
	"github.com/servebench/servebench/sweepreport"
)

// A sweep of two rates: 20 of 20 qualified at 1 req/s, 15 of 20 at 2.
func ExampleFromSweep() {
	att := func(q int) *float64 { v := float64(q) / 20; return &v }
	sw := capacity.NewSweep([]capacity.Point{
		{OfferedRPS: 1, Report: &report.Report{Offered: 20, Qualified: 20, Attainment: att(20), Valid: true}},
		{OfferedRPS: 2, Report: &report.Report{Offered: 20, Qualified: 15, Attainment: att(15), Valid: true}},
	}, capacity.Rule{MinAttainment: 0.9})
	res := sweepreport.FromSweep(sw, "")
	for _, r := range res.Rates {
		fmt.Println(r.RateRPS, r.Verdict)
	}
	fmt.Println("knee:", *res.KneeRPS)
	// Output:
	// 1 pass
	// 2 fail
	// knee: 1
}

// Two configurations on one workload: only runs that met the SLO can be on
// the front.
func ExampleNewPareto() {
	row := func(rate, tokPerS, tpotMS float64, verdict string) sweepreport.Rate {
		return sweepreport.Rate{RateRPS: rate, Repeat: 1, OutputTokensPerS: &tokPerS, TPOTP50MS: &tpotMS, Verdict: verdict}
	}
	p, err := sweepreport.NewPareto([]sweepreport.Config{
		{Name: "seqs-32", Sweep: sweepreport.Result{Rates: []sweepreport.Rate{row(1, 100, 2, "pass"), row(2, 190, 4, "pass")}}},
		{Name: "seqs-64", Sweep: sweepreport.Result{Rates: []sweepreport.Rate{row(2, 200, 4, "pass"), row(4, 900, 3, "fail")}}},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, f := range p.Front {
		fmt.Printf("%s @%g: %g tok/s, %g tok/s per user\n", f.Config, f.RateRPS, f.OutputTokensPerS, f.PerUserTokensPerS)
	}
	// Output:
	// seqs-32 @1: 100 tok/s, 500 tok/s per user
	// seqs-64 @2: 200 tok/s, 250 tok/s per user
}
