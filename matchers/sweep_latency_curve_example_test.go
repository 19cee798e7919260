package matchers_test

import (
	"fmt"
	"time"

	"github.com/servebench/servebench/matchers"
	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/sweepreport"
)

func ExampleHaveLatencyCurveBelow() {
	p99 := func(v float64) *float64 { return &v }
	// As read from sweep.json.
	res := sweepreport.Result{Rates: []sweepreport.Rate{
		{RateRPS: 2, Repeat: 1, TTFTP99MS: p99(120)},
		{RateRPS: 4, Repeat: 1, TTFTP99MS: p99(310)},
		{RateRPS: 8, Repeat: 1, TTFTP99MS: p99(900)},
	}}
	m := matchers.HaveLatencyCurveBelow(record.MetricTTFT, 99, 500*time.Millisecond, 8)
	ok, err := m.Match(res)
	fmt.Println(ok, err)
	fmt.Println(m.FailureMessage(res)[:86])
	// Output:
	// false <nil>
	// Expected p99 TTFT to stay at or under 500ms up to 8 req/s, but at 8 req/s (run 1) it i
}
