package score

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/servebench/report"
	"github.com/servebench/servebench/servebench/schedule"
)

// prefixCacheRun is four successful requests of 256 prompt tokens, three
// of which reported 0, 64 and 128 cached tokens and one nothing, and a
// failed request that reported cached tokens (a failure does not count).
func prefixCacheRun() ([]record.Outcome, []string) {
	ids := []string{"a", "b", "c", "d", "e"}
	var outs []record.Outcome
	for i, id := range ids[:4] {
		o := success(id, float64(i*100), float64(i*100+1), []float64{float64(i*100 + 50)}, float64(i*100+60), new(1))
		o.PromptTokens = new(256)
		if i < 3 {
			o.CachedTokens = new(64 * i)
		}
		outs = append(outs, o)
	}
	failed := record.Outcome{ID: "e", Attempt: 1, Status: record.StatusStreamError, ScheduledMS: 400, SentMS: new(401.0),
		TerminalMS: 420, PromptTokens: new(256), CachedTokens: new(256), Error: "stream cut"}
	return append(outs, failed), ids
}

// TestPrefixCacheFromReportedCachedTokens checks the hand-computed figures
// in memory and streamed: 0 + 64 + 128 = 192 cached of 3 × 256 = 768
// prompt tokens over the three requests that reported, a hit rate of 0.25,
// the unreported request and the failure left out, and no engine rate
// without engine metrics.
func TestPrefixCacheFromReportedCachedTokens(t *testing.T) {
	outs, ids := prefixCacheRun()
	s := testSchedule(map[string]float64{"a": 0, "b": 100, "c": 200, "d": 300, "e": 400}, ids...)
	mem, err := Outcomes(s, outs, Options{})
	if err != nil {
		t.Fatal(err)
	}
	pc := mem.PrefixCache
	if pc == nil {
		t.Fatal("no prefix_cache in the report")
	}
	if pc.RequestsReporting != 3 || pc.CachedTokens != 192 || pc.PromptTokens != 768 {
		t.Fatalf("reporting %d cached %d prompt %d, want 3, 192, 768", pc.RequestsReporting, pc.CachedTokens, pc.PromptTokens)
	}
	wantFloat(t, "hit rate", pc.HitRate, 0.25)
	if pc.EngineHitRate != nil {
		t.Fatalf("engine hit rate %v without engine metrics", *pc.EngineHitRate)
	}
	var buf bytes.Buffer
	streamed, err := scoreRunDirStreaming(writeRunDir(t, s, outs, nil), Options{}, &buf)
	if err != nil {
		t.Fatal(err)
	}
	wb, _ := json.Marshal(mem.PrefixCache)
	gb, _ := json.Marshal(streamed.PrefixCache)
	if !bytes.Equal(wb, gb) {
		t.Fatalf("streamed prefix_cache %s, in memory %s", gb, wb)
	}
	if want := `{"requests_reporting":3,"cached_tokens":192,"prompt_tokens":768,"hit_rate":0.25,"engine_hit_rate":null}`; string(wb) != want {
		t.Fatalf("prefix_cache JSON %s, want %s", wb, want)
	}
}

// TestPrefixCacheAbsentOrUndefined: no request reporting and no engine
// rate leaves the object out; requests that reported with 0 prompt tokens
// give a null hit rate, not 0 and not NaN.
func TestPrefixCacheAbsentOrUndefined(t *testing.T) {
	s := testSchedule(map[string]float64{"a": 0}, "a")
	o := success("a", 0, 1, []float64{50}, 60, new(1))
	o.PromptTokens = new(256)
	r, err := Outcomes(s, []record.Outcome{o}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if r.PrefixCache != nil {
		t.Fatalf("prefix_cache %+v with no request reporting", *r.PrefixCache)
	}
	b, _ := json.Marshal(r)
	if strings.Contains(string(b), "prefix_cache") {
		t.Fatal("report.json has a prefix_cache key with nothing measured")
	}
	o.PromptTokens, o.CachedTokens = new(0), new(0)
	r, err = Outcomes(s, []record.Outcome{o}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if r.PrefixCache == nil || r.PrefixCache.RequestsReporting != 1 || r.PrefixCache.HitRate != nil {
		t.Fatalf("prefix_cache %+v, want one request reporting and a null hit rate", r.PrefixCache)
	}
}

// TestPrefixCacheEngineRateOnRescore: scoring a run directory again takes
// the engine's rate from the engine metrics its report recorded (hits 30
// of 120 queried tokens: 0.25), beside the requests' own rate, also when no
// request reported cached tokens.
func TestPrefixCacheEngineRateOnRescore(t *testing.T) {
	s, outs := runDirFixture()
	prev := &report.Report{EngineMetrics: &report.EngineMetrics{URL: "http://engine/metrics", Counters: map[string]float64{
		`vllm:prefix_cache_hits_total{model_name="m"}`: 30, `vllm:prefix_cache_queries_total{model_name="m"}`: 120}}}
	for streamedToo, r := range rescoredBothWays(t, s, outs, prev) {
		if r.PrefixCache == nil || r.PrefixCache.RequestsReporting != 0 || r.PrefixCache.HitRate != nil {
			t.Fatalf("streamed %v: prefix_cache %+v, want the engine's rate alone", streamedToo, r.PrefixCache)
		}
		wantFloat(t, "engine hit rate", r.PrefixCache.EngineHitRate, 0.25)
	}
}

// rescoredBothWays scores a run directory of s, outs and the report prev
// again, in memory ([false]) and streamed ([true]).
func rescoredBothWays(t *testing.T, s *schedule.Schedule, outs []record.Outcome, prev *report.Report) map[bool]*report.Report {
	t.Helper()
	out := map[bool]*report.Report{}
	for _, streamed := range []bool{false, true} {
		dir := writeRunDir(t, s, outs, prev)
		var r *report.Report
		var err error
		if streamed {
			r, err = scoreRunDirStreaming(dir, Options{}, &bytes.Buffer{})
		} else {
			r, err = RunDir(dir, Options{})
		}
		if err != nil {
			t.Fatal(err)
		}
		out[streamed] = r
	}
	return out
}

// TestRescoreKeepsWhatOnlyTheRunMeasured: scoring a run directory again
// keeps what the run sampled beside its requests, each replica's metrics
// behind a gateway among them, in memory and streamed.
func TestRescoreKeepsWhatOnlyTheRunMeasured(t *testing.T) {
	s, outs := runDirFixture()
	prev := &report.Report{BackendMetrics: []report.BackendMetrics{
		{EngineMetrics: report.EngineMetrics{URL: "http://replica-1/metrics"}}, {EngineMetrics: report.EngineMetrics{URL: "http://replica-2/metrics"}}}}
	for streamedToo, r := range rescoredBothWays(t, s, outs, prev) {
		if len(r.BackendMetrics) != 2 || r.BackendMetrics[0].URL != "http://replica-1/metrics" || r.BackendMetrics[1].URL != "http://replica-2/metrics" {
			t.Fatalf("streamed %v: backend metrics %+v, want both replicas kept", streamedToo, r.BackendMetrics)
		}
	}
}

// TestPrefixCacheNegativeCountIsRefused: a negative cached_tokens is a
// malformed record, reported with its field.
func TestPrefixCacheNegativeCountIsRefused(t *testing.T) {
	s := testSchedule(map[string]float64{"a": 0}, "a")
	o := success("a", 0, 1, []float64{50}, 60, new(1))
	o.CachedTokens = new(-1)
	if _, err := Outcomes(s, []record.Outcome{o}, Options{}); err == nil || !strings.Contains(err.Error(), "cached_tokens") {
		t.Fatalf("error %v, want one naming cached_tokens", err)
	}
}

// TestPrefixCacheExpectedReuse: the three reporting requests' rows declare
// 0, 96 and 160 reusable tokens (the failure's 256 and the unreported
// request's 200 do not count): 256 expected of 768 prompt tokens, an
// expected hit rate of 1/3, and 192 cached of 256 expected, a reuse of
// 0.75, the same in memory and streamed. When one reporting request's row
// declares nothing, the expectation is left out (null is never written).
func TestPrefixCacheExpectedReuse(t *testing.T) {
	outs, ids := prefixCacheRun()
	for i, n := range []int{0, 96, 160, 200, 256} {
		outs[i].ReusablePromptTokens = new(n)
	}
	s := testSchedule(map[string]float64{"a": 0, "b": 100, "c": 200, "d": 300, "e": 400}, ids...)
	mem, err := Outcomes(s, outs, Options{})
	if err != nil {
		t.Fatal(err)
	}
	pc := mem.PrefixCache
	if pc == nil || pc.ExpectedCachedTokens == nil || *pc.ExpectedCachedTokens != 256 {
		t.Fatalf("prefix cache %+v, want 256 expected cached tokens", pc)
	}
	wantFloat(t, "expected hit rate", pc.ExpectedHitRate, 256.0/768)
	wantFloat(t, "reuse achieved", pc.ReuseAchieved, 0.75)
	streamed, err := scoreRunDirStreaming(writeRunDir(t, s, outs, nil), Options{}, &bytes.Buffer{})
	if err != nil {
		t.Fatal(err)
	}
	wb, _ := json.Marshal(mem.PrefixCache)
	gb, _ := json.Marshal(streamed.PrefixCache)
	if !bytes.Equal(wb, gb) {
		t.Fatalf("streamed prefix_cache %s, in memory %s", gb, wb)
	}
	outs[1].ReusablePromptTokens = nil
	partial, err := Outcomes(s, outs, Options{})
	if err != nil {
		t.Fatal(err)
	}
	pb, _ := json.Marshal(partial.PrefixCache)
	if strings.Contains(string(pb), "expected") || strings.Contains(string(pb), "reuse") {
		t.Fatalf("one reporting row declares nothing, yet prefix_cache is %s", pb)
	}
}
