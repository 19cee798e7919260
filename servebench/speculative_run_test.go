package servebench_test

import (
	"context"
	"reflect"
	"strings"
	"testing"

	"github.com/servebench/servebench/fixtures/simengine"
	"github.com/servebench/servebench/servebench"
	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/servebench/score"
)

// TestRunReportsSpeculativeDecoding runs two requests against a simulated
// engine whose draft model proposes 4 tokens per step: one row accepts
// every draft token and forces 33 tokens (1 from the prefill, six drafts
// of 4 accepted, a seventh of which it needs 1), the other accepts none
// and forces 4 (three drafts). The engine's counters over the
// measurement are 10 drafts, 40 draft tokens and 25 accepted, so the
// report gives acceptance rate 25/40 = 0.625, mean acceptance length
// 1 + 25/10 = 3.5 and, per position, 7/10, 6/10, 6/10 and 6/10; scoring
// the run again keeps them. With the engine's per-request metrics on,
// every outcome records its own drafts.
func TestRunReportsSpeculativeDecoding(t *testing.T) {
	srv := simengine.StartTest(t, func(c *simengine.Config) {
		c.TimeScale = 0.1
		c.SpecTokens, c.SpecAcceptance, c.PerRequestSpecMetrics = 4, 0.5, true
	})
	rows := `{"id":"right","prompt":"always right","max_tokens":33,"ignore_eos":true,"extra":{"sim_spec_acceptance":1}}
{"id":"wrong","prompt":"always wrong","max_tokens":4,"ignore_eos":true,"extra":{"sim_spec_acceptance":0}}
`
	dir := t.TempDir()
	res, err := servebench.Run(context.Background(), servebench.RunConfig{
		Workload: workloadOf(t, rows), Arrival: constant(t, 20), Count: 2, Client: clientFor(srv), OutputDir: dir,
		EngineMetrics: servebench.EngineMetricsConfig{URL: srv.BaseURL() + "/metrics", Interval: -1},
	})
	if err != nil {
		t.Fatal(err)
	}
	sd := res.Report.SpeculativeDecoding
	if sd == nil || sd.AcceptanceRate == nil || sd.MeanAcceptanceLength == nil {
		t.Fatalf("speculative decoding %+v, want the rates", sd)
	}
	if sd.Drafts != 10 || sd.DraftTokens != 40 || sd.AcceptedTokens != 25 || *sd.AcceptanceRate != 0.625 || *sd.MeanAcceptanceLength != 3.5 ||
		!reflect.DeepEqual(sd.PerPosition, []float64{0.7, 0.6, 0.6, 0.6}) {
		t.Fatalf("speculative decoding %+v (rate %v, length %v), want 10 drafts, 40 draft tokens, 25 accepted, 0.625, 3.5, [0.7 0.6 0.6 0.6]",
			*sd, *sd.AcceptanceRate, *sd.MeanAcceptanceLength)
	}
	// Each request's own figures, from the stream's last chunk: 7 drafts
	// of 4 tokens with 25 accepted, and 3 drafts with none.
	want := map[string]record.SpeculativeDecoding{"right": {Steps: 7, DraftTokens: 28, AcceptedTokens: 25}, "wrong": {Steps: 3, DraftTokens: 12}}
	for _, o := range outcomesOf(t, res) {
		row := strings.SplitN(o.ID, "-", 2)[0]
		if o.SpeculativeDecoding == nil || *o.SpeculativeDecoding != want[row] {
			t.Fatalf("request %s: speculative decoding %+v, want %+v", o.ID, o.SpeculativeDecoding, want[row])
		}
	}
	again, err := score.RunDir(dir, score.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if a := again.SpeculativeDecoding; a == nil || a.AcceptedTokens != 25 || *a.MeanAcceptanceLength != 3.5 {
		t.Fatalf("rescored: %+v", a)
	}
}
