package score

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/servebench/servebench/servebench/record"
)

func TestReportJSONIsSafeAndUndefinedIsNull(t *testing.T) {
	r, err := TraceFiles(seedTracePath, seedEventsPath)
	if err != nil {
		t.Fatal(err)
	}
	data, err := json.Marshal(r)
	if err != nil {
		t.Fatalf("marshal: %v", err)
	}
	var m map[string]any
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	if v, ok := m["capacity_estimate_rps"]; !ok || v != nil {
		t.Fatalf("capacity_estimate_rps = %v (present %v), want null", v, ok)
	}
	reqs := m["requests"].([]any)
	r02 := reqs[1].(map[string]any)
	if v, ok := r02["tpot_ms"]; !ok || v != nil {
		t.Fatalf("r02 tpot_ms = %v, want null", v)
	}
	if reasons := r02["reasons"].([]any); len(reasons) != 0 {
		t.Fatalf("r02 reasons %v", reasons)
	}
	for _, key := range []string{"offered", "protocol_successes", "qualified", "attainment", "wilson_lower", "wilson_confidence",
		"status_counts", "window_ms", "horizon_ms", "offered_rps", "successful_rps", "qualified_rps", "max_schedule_lag_ms",
		"valid", "inputs", "percentiles", "requests"} {
		if _, ok := m[key]; !ok {
			t.Fatalf("report lacks %q", key)
		}
	}
	pct := m["percentiles"].(map[string]any)
	for _, metric := range []string{"ttft_ms", "tpot_ms", "itl_ms", "e2e_ms", "schedule_lag_ms"} {
		d, ok := pct[metric].(map[string]any)
		if !ok {
			t.Fatalf("percentiles lack %s", metric)
		}
		for _, k := range []string{"population", "n", "p50", "p90", "p95", "p99", "max"} {
			if _, ok := d[k]; !ok {
				t.Fatalf("%s lacks %s", metric, k)
			}
		}
	}
	in := m["inputs"].(map[string]any)
	if in["trace_sha256"] == "" || in["events_sha256"] == "" {
		t.Fatalf("inputs %v", in)
	}
}

func TestReportJSONWithNoSuccess(t *testing.T) {
	trace := `{"window_ms": [0, 1000], "slo": {"tpot_ms": 50}, "requests": [{"id": "a", "scheduled_ms": 0}, {"id": "b", "scheduled_ms": 10}]}`
	events := `{"id": "a", "sent_ms": null, "terminal_ms": 0, "token_ms": [], "status": "not_sent", "quality_pass": false}
{"id": "b", "sent_ms": 10, "terminal_ms": 20, "token_ms": [], "status": "http_error", "quality_pass": null}
`
	r, err := Trace("t.json", []byte(trace), "e.jsonl", []byte(events), Options{})
	if err != nil {
		t.Fatal(err)
	}
	data, err := json.Marshal(r)
	if err != nil {
		t.Fatalf("marshal: %v", err)
	}
	for _, bad := range []string{"NaN", "Inf"} {
		if bytes.Contains(data, []byte(bad)) {
			t.Fatalf("JSON holds %s: %s", bad, data)
		}
	}
	if *r.Attainment != 0 || *r.SuccessfulRPS != 0 || r.Percentiles[record.MetricTTFT].N != 0 || r.Percentiles[record.MetricTTFT].P50 != nil || r.Percentiles[record.MetricTTFT].Mean != nil {
		t.Fatalf("attainment %v successful %v ttft %+v", *r.Attainment, *r.SuccessfulRPS, r.Percentiles[record.MetricTTFT])
	}
	if !strings.Contains(string(data), `"ttft_ms":{"population":"successful requests (0 of 2 offered): first content − sent","n":0,"mean":null,"p50":null`) {
		t.Fatalf("empty distribution is not null-valued: %s", data)
	}
	if r.AttainmentKind != "performance" {
		t.Fatalf("kind %q: no success was judged", r.AttainmentKind)
	}
}
