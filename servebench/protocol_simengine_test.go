package servebench_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/servebench/servebench/fixtures/simengine"
	"github.com/servebench/servebench/servebench"
)

// The simulated engine serves every pooling route, and each answer costs
// at least the prefill of all its tokens: E2E is never below
// PrefillTime(tokens), whatever the machine's load (a lower bound).
func TestSimengineServesThePoolingAPIs(t *testing.T) {
	cfg := simengine.DefaultConfig()
	cfg.PrefillPerToken = 2 * time.Millisecond
	engine, err := simengine.Start(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer engine.Close()
	words := func(n int) string { return strings.TrimSpace(strings.Repeat("word ", n)) }
	for _, tc := range []struct {
		endpoint servebench.Endpoint
		row      string
		items    int
		tokens   int // the query read with each document, for ranking
	}{
		{servebench.EndpointEmbeddings, `{"input":["` + words(10) + `","` + words(10) + `","` + words(10) + `","` + words(10) + `"]}`, 4, 40},
		{servebench.EndpointRerank, `{"query":"` + words(5) + `","documents":["` + words(10) + `","` + words(20) + `"],"top_n":1}`, 2, 5 + 10 + 5 + 20},
		{servebench.EndpointRerankTEI, `{"query":"` + words(5) + `","documents":["` + words(10) + `","` + words(20) + `"]}`, 2, 40},
		{servebench.EndpointPairScore, `{"query":"` + words(5) + `","documents":["` + words(10) + `","` + words(20) + `"]}`, 2, 40},
	} {
		t.Run(string(tc.endpoint), func(t *testing.T) {
			c := &servebench.Client{BaseURL: engine.BaseURL(), Model: cfg.Model, Endpoint: tc.endpoint, TotalTimeout: 10 * time.Second}
			out := &servebench.Outcome{ID: "r", Attempt: 1}
			start := time.Now()
			c.Do(context.Background(), start, parseRow(t, tc.row), "run/r/1", out)
			wantStatus(t, out, servebench.StatusSuccess)
			wantInt(t, "items", out.Items, tc.items)
			if tc.endpoint == servebench.EndpointRerankTEI {
				wantNil(t, "prompt tokens (TEI's bare list has no usage)", out.PromptTokens)
			} else {
				wantInt(t, "prompt tokens", out.PromptTokens, tc.tokens)
			}
			within(t, "E2E vs the prefill of every token", out.TerminalMS-*out.SentMS, servebench.Millis(cfg.PrefillTime(tc.tokens)))
		})
	}
}
