package threshold_test

import (
	"testing"

	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/servebench/threshold"
)

func TestParseValid(t *testing.T) {
	for _, c := range []struct {
		expr string
		want threshold.Threshold
	}{
		{"ttft_p99<=500ms", threshold.Threshold{Expr: "ttft_p99<=500ms", Statistic: "ttft_p99", Metric: record.MetricTTFT, P: 99, Op: threshold.AtMost, Bound: 500}},
		{"tpot_p50<=40ms", threshold.Threshold{Expr: "tpot_p50<=40ms", Statistic: "tpot_p50", Metric: record.MetricTPOT, P: 50, Op: threshold.AtMost, Bound: 40}},
		{"e2e_p90<2s", threshold.Threshold{Expr: "e2e_p90<2s", Statistic: "e2e_p90", Metric: record.MetricE2E, P: 90, Op: threshold.Less, Bound: 2000}},
		{" itl_p99.9 < 800us ", threshold.Threshold{Expr: "itl_p99.9 < 800us", Statistic: "itl_p99.9", Metric: record.MetricITL, P: 99.9, Op: threshold.Less, Bound: 0.8}},
		{"ttft_ms_p100<=1m", threshold.Threshold{Expr: "ttft_ms_p100<=1m", Statistic: "ttft_ms_p100", Metric: record.MetricTTFT, P: 100, Op: threshold.AtMost, Bound: 60000}},
		{"max_gap_p95>1.5ms", threshold.Threshold{Expr: "max_gap_p95>1.5ms", Statistic: "max_gap_p95", Metric: "max_gap_ms", P: 95, Op: threshold.Greater, Bound: 1.5}},
		{"schedule_lag_p99<=2ms", threshold.Threshold{Expr: "schedule_lag_p99<=2ms", Statistic: "schedule_lag_p99", Metric: record.MetricScheduleLag, P: 99, Op: threshold.AtMost, Bound: 2}},
		{"attainment>=0.95", threshold.Threshold{Expr: "attainment>=0.95", Statistic: "attainment", Op: threshold.AtLeast, Bound: 0.95}},
		{"wilson_lower>=0.9", threshold.Threshold{Expr: "wilson_lower>=0.9", Statistic: "wilson_lower", Op: threshold.AtLeast, Bound: 0.9}},
		{"error_rate<=0.01", threshold.Threshold{Expr: "error_rate<=0.01", Statistic: "error_rate", Op: threshold.AtMost, Bound: 0.01}},
		{"error_rate<=0", threshold.Threshold{Expr: "error_rate<=0", Statistic: "error_rate", Op: threshold.AtMost, Bound: 0}},
		{"qualified_rate>12.5", threshold.Threshold{Expr: "qualified_rate>12.5", Statistic: "qualified_rate", Op: threshold.Greater, Bound: 12.5}},
	} {
		got, err := threshold.Parse(c.expr)
		if err != nil {
			t.Errorf("Parse(%q): %v", c.expr, err)
			continue
		}
		if got != c.want {
			t.Errorf("Parse(%q) = %+v, want %+v", c.expr, got, c.want)
		}
	}
}

func TestParseInvalid(t *testing.T) {
	const metrics = "ttft, ttft_from_scheduled, tpot, itl, chunk_gap, max_gap, e2e, last_token, schedule_lag, client_queue"
	for _, c := range []struct{ expr, want string }{
		{"ttft_p99<=fast", `the bound "fast" is not a duration (e.g. 500ms)`},
		{"ttft_p99<=500", `the bound "500" is not a duration (e.g. 500ms)`},
		{"ttft_p99<=-5ms", `the bound "-5ms" is negative`},
		{"ttft_p99", "no comparison: want STATISTIC OP BOUND with OP one of <, <=, >, >= (e.g. ttft_p99<=500ms)"},
		{"ttft_p99==500ms", `unknown comparison "==" (want <, <=, > or >=)`},
		{"ttft_p99=<500ms", `unknown comparison "=<" (want <, <=, > or >=)`},
		{"<=500ms", `no statistic before "<=" (e.g. ttft_p99, attainment)`},
		{"ttft_p99<=", `no bound after "<="`},
		{"ttft<=500ms", `"ttft" names no percentile: write ttft_p50, ttft_p99, …`},
		{"p(99)<500", `unknown statistic "p(99)" (want attainment, wilson_lower, error_rate, qualified_rate, session_attainment, session_wilson_lower, acceptance_rate, mean_acceptance_length, jain_DIMENSION, or METRIC_pP with METRIC one of ` + metrics + ` and P a percentile, e.g. ttft_p99)`},
		{"latency_p99<=1s", `unknown statistic "latency_p99" (want attainment, wilson_lower, error_rate, qualified_rate, session_attainment, session_wilson_lower, acceptance_rate, mean_acceptance_length, jain_DIMENSION, or METRIC_pP with METRIC one of ` + metrics + ` and P a percentile, e.g. ttft_p99)`},
		{"ttft_p0<=1s", `the percentile "p0" of "ttft_p0" is not a number in (0, 100] (e.g. p99, p99.9)`},
		{"ttft_p101<=1s", `the percentile "p101" of "ttft_p101" is not a number in (0, 100] (e.g. p99, p99.9)`},
		{"ttft_pmax<=1s", `the percentile "pmax" of "ttft_pmax" is not a number in (0, 100] (e.g. p99, p99.9)`},
		{"attainment>=95%", `the bound "95%" is not a number (e.g. 0.95)`},
		{"attainment>=500ms", `the bound "500ms" is not a number (e.g. 0.95)`},
		{"attainment>=1.5", "the bound 1.5 is not a fraction in [0, 1]"},
		{"error_rate<=-0.1", "the bound -0.1 is not a fraction in [0, 1]"},
		{"wilson_lower>=NaN", `the bound "NaN" is not a number (e.g. 0.95)`},
		{"qualified_rate>=fast", `the bound "fast" is not a number of requests per second (e.g. 10)`},
		{"qualified_rate>=-1", "the bound -1 is negative"},
		{"session_attainment>=1.2", "the bound 1.2 is not a fraction in [0, 1]"},
		{"jain_tenant>=2", "the bound 2 is not a fraction in [0, 1]"},
		{"mean_acceptance_length>=0.5", "the bound 0.5 is below 1: a mean acceptance length counts the target model's own token"},
		{"mean_acceptance_length>=many", `the bound "many" is not a number of tokens (e.g. 2.5)`},
		{"jain_region>=0.9", `"jain_region" names no breakdown dimension: want jain_DIMENSION with DIMENSION one of class, backend, adapter, tenant, turn, cached_fraction, modality (e.g. jain_tenant)`},
	} {
		_, err := threshold.Parse(c.expr)
		if err == nil {
			t.Errorf("Parse(%q) accepted it, want %q", c.expr, c.want)
			continue
		}
		if err.Error() != c.want {
			t.Errorf("Parse(%q):\n got %s\nwant %s", c.expr, err, c.want)
		}
	}
}

func TestLevels(t *testing.T) {
	var ts []threshold.Threshold
	for _, e := range []string{"ttft_p99.9<=1s", "attainment>=0.9", "e2e_p100<=9s", "tpot_p75<=50ms"} {
		th, err := threshold.Parse(e)
		if err != nil {
			t.Fatal(err)
		}
		ts = append(ts, th)
	}
	got := threshold.Levels(ts)
	if len(got) != 2 || got[0] != 99.9 || got[1] != 75 {
		t.Fatalf("Levels = %v, want [99.9 75]", got)
	}
}
