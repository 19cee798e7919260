package servebench_test

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	"github.com/servebench/servebench/fixtures/simengine"
	"github.com/servebench/servebench/fixtures/traces"
	"github.com/servebench/servebench/servebench"
	"github.com/servebench/servebench/servebench/openai"
	"github.com/servebench/servebench/servebench/record"
)

// agentxSubagentTrace is an AgentX trace of three calls: the parent's
// first call, a subagent's call spawned after it, and the parent's second
// call, which continues its first.
const agentxSubagentTrace = `{"id":"job","block_size":4,"hash_id_scope":"local","requests":[` +
	`{"t":0,"type":"n","in":8,"out":3,"hash_ids":[1,2],"api_time":0.01},` +
	`{"t":0.02,"type":"subagent","agent_id":"agent_001","system_tokens":4,"requests":[` +
	`{"t":0.02,"type":"n","in":6,"out":2,"hash_ids":[7],"api_time":0.01}]},` +
	`{"t":0.04,"type":"s","in":16,"out":2,"hash_ids":[1,2,5,6]}]}
`

// An imported AgentX trace replays with engine history: the subagent's
// call carries the text the engine streamed for its parent's call, sent
// only after that call ended, and the parent's second call carries the
// same answer; the user messages go as the rows write them.
func TestAgentXSubagentCarriesItsParentsRealAnswer(t *testing.T) {
	var rows bytes.Buffer
	if _, err := traces.ImportAgentX(&rows, strings.NewReader(agentxSubagentTrace), "job.jsonl", traces.AgentXOptions{Seed: 1}); err != nil {
		t.Fatal(err)
	}
	wl := workloadOf(t, rows.String())
	engine := simengine.StartTest(t, func(c *simengine.Config) { c.TimeScale = 0.05 })
	wire := startWireLog(t, engine)
	res, err := servebench.Run(context.Background(), servebench.RunConfig{
		Workload: wl, Arrival: constant(t, 20), Count: 1,
		Client: &openai.Client{BaseURL: wire.url, Model: "simengine-tiny", Endpoint: record.EndpointChat, TotalTimeout: 20 * time.Second},
		Score:  servebench.Scoring{WindowMS: &[2]float64{0, 60_000}}, OutputDir: t.TempDir(),
	})
	if err != nil {
		t.Fatal(err)
	}
	parent := wire.answers["job-t1"]
	if words := len(strings.Fields(parent)); words == 0 {
		t.Fatalf("the engine streamed no answer for the parent's call")
	}
	child, second := wl.Requests[1], wl.Requests[2]
	if child.Messages[1].Content == parent {
		t.Fatal("the row's placeholder already equals the engine's answer: the test cannot tell them apart")
	}
	wantMessages(t, "job-t2", wire.sentMessages(t, "job-t2"), []string{child.Messages[0].Content, child.Messages[2].Content}, []string{parent})
	wantMessages(t, "job-t3", wire.sentMessages(t, "job-t3"), []string{second.Messages[0].Content, second.Messages[2].Content}, []string{parent})
	byID := map[string]record.Outcome{}
	for _, o := range outcomesOf(t, res) {
		if o.Status != record.StatusSuccess {
			t.Fatalf("%s: %s", o.ID, o.Status)
		}
		byID[o.ID] = o
	}
	// The subagent starts only when its parent's call has ended, and the
	// parent goes on only when the subagent has ended.
	if p, c := byID["job-t1"], byID["job-t2"]; *c.SentMS < p.TerminalMS {
		t.Fatalf("the subagent was sent at %v ms, before its parent ended at %v ms", *c.SentMS, p.TerminalMS)
	}
	if c, p := byID["job-t2"], byID["job-t3"]; *p.SentMS < c.TerminalMS {
		t.Fatalf("the parent's second call was sent at %v ms, before the subagent ended at %v ms", *p.SentMS, c.TerminalMS)
	}
}
