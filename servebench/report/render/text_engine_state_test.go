package render_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/servebench/servebench/servebench/report"
	"github.com/servebench/servebench/servebench/report/render"
	"github.com/servebench/servebench/servebench/score"
)

// The text report gives the cache state with its route and the declared
// policy, the speculative decoding (25 of 40 draft tokens: 62.5 %, length
// 3.50 over 10 drafts) and the engine's starts, each on its own line; a
// report without them has none of the lines.
func TestTextShowsTheEngineState(t *testing.T) {
	r, err := score.TraceFiles(seedTrace, seedEvents)
	if err != nil {
		t.Fatal(err)
	}
	var plain bytes.Buffer
	if err := render.Text(&plain, r); err != nil {
		t.Fatal(err)
	}
	for _, absent := range []string{"Prefix cache state", "Speculative decoding", "Engine starts"} {
		if strings.Contains(plain.String(), absent) {
			t.Errorf("a report without it shows %q", absent)
		}
	}
	ready, first, pull := 41000.0, 44500.0, 3000.0
	r.EngineState = report.EngineState{CacheState: "reset", CacheResetRoute: "/reset_prefix_cache", CachePolicy: "warm",
		SpeculativeDecoding: &report.SpeculativeDecoding{Drafts: 10, DraftTokens: 40, AcceptedTokens: 25,
			AcceptanceRate: new(0.625), MeanAcceptanceLength: new(3.5), PerPosition: []float64{0.7, 0.6}},
		EngineStarts: []report.EngineStart{{ReadyMS: &ready, FirstTokenMS: &first, PullMS: &pull}}}
	var buf bytes.Buffer
	if err := render.Text(&buf, r); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"reset (POST /reset_prefix_cache before the warmup); the workload declares warm",
		"acceptance rate 62.5% (25 of 40 draft tokens), mean acceptance length 3.50 over 10 drafts; per position 70.0%, 60.0%",
		"1 start: ready 41000 ms, first token 44500 ms (pull 3000 ms apart)",
	} {
		if !strings.Contains(buf.String(), want) {
			t.Errorf("the text report lacks %q:\n%s", want, buf.String())
		}
	}
}
