package servebench_test

import (
	"bufio"
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/servebench/servebench/fixtures/simengine"
	"github.com/servebench/servebench/servebench"
	"github.com/servebench/servebench/servebench/openai"
	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/servebench/schedule"
)

// agentSessionRows is one session of rounds rounds, each later round
// after a tool wait of thinkMS, carrying the earlier answers.
func agentSessionRows(rounds int, thinkMS float64) string {
	var sb strings.Builder
	msgs := `{"role":"user","content":"open the failing test"}`
	for k := 1; k <= rounds; k++ {
		think := ""
		if k > 1 {
			think = fmt.Sprintf(`,"think_ms":%g`, thinkMS)
			msgs += `,{"role":"assistant","content":"x"},{"role":"user","content":"tool result ` + fmt.Sprint(k) + `"}`
		}
		fmt.Fprintf(&sb, `{"id":"r%d","conversation":"agent","turn":%d%s,"messages":[%s],"max_tokens":4,"ignore_eos":true}`+"\n", k, k, think, msgs)
	}
	return sb.String()
}

// BenchmarkAgentSessions runs 1,000 agent sessions against the simulated
// engine, started by a Poisson process at 100 sessions/s, each of 4 rounds
// with a 4 s tool wait before each later round, so that all 1,000 are in
// flight together once the last has started (peak-agents counts the
// sessions in flight at once, from first send to last end). It reports the
// lag of each later round's send behind its due time (its previous round's
// end plus the tool wait): p99 and max over the 3,000 later rounds, in ms.
// The target is a p99 of at most 5 ms. ns/op is one whole run (about 23 s).
//
//	go test -run '^$' -bench AgentSessions -benchtime 1x ./servebench
func BenchmarkAgentSessions(b *testing.B) {
	const agents, rounds = 1000, 4
	engine, err := simengine.Start(context.Background(), func() simengine.Config {
		c := simengine.DefaultConfig()
		c.TimeScale, c.MaxRunningSequences = 0.01, 2*agents
		return c
	}())
	if err != nil {
		b.Fatal(err)
	}
	defer engine.Close()
	w, err := schedule.ParseWorkload("agents.jsonl", []byte(agentSessionRows(rounds, 4000)))
	if err != nil {
		b.Fatal(err)
	}
	client := &openai.Client{BaseURL: engine.BaseURL(), Model: "simengine-tiny", Endpoint: record.EndpointChat, TotalTimeout: 30 * time.Second}
	var p99, worst, peak float64
	b.ResetTimer()
	for i := range b.N {
		a, _ := schedule.NewArrival(schedule.ArrivalSpec{Process: "poisson", RateRPS: 100, Seed: int64(i + 1)})
		res, err := servebench.Run(context.Background(), servebench.RunConfig{
			Workload: w, Arrival: a, Count: agents, Client: client, OutputDir: b.TempDir(),
		})
		if err != nil {
			b.Fatal(err)
		}
		lags, inFlight, err := laterRoundLags(res.Dir)
		if err != nil {
			b.Fatal(err)
		}
		if len(lags) != agents*(rounds-1) {
			b.Fatalf("%d later rounds succeeded, want %d", len(lags), agents*(rounds-1))
		}
		slices.Sort(lags)
		p99 = max(p99, lags[(len(lags)*99+99)/100-1]) // nearest rank
		worst = max(worst, lags[len(lags)-1])
		peak = max(peak, float64(inFlight))
	}
	b.ReportMetric(p99, "p99-round-lag-ms")
	b.ReportMetric(worst, "max-round-lag-ms")
	b.ReportMetric(peak, "peak-agents")
}

// laterRoundLags reads a run's outcomes: the send lag (sent − scheduled,
// where a later round is scheduled at its previous round's end plus the
// tool wait) of every successful round but the first, and the most
// sessions in flight at once (from a session's first send to its last
// round's end).
func laterRoundLags(dir string) ([]float64, int, error) {
	f, err := os.Open(filepath.Join(dir, record.OutcomesFile))
	if err != nil {
		return nil, 0, err
	}
	defer f.Close()
	var lags []float64
	spans := map[string][2]float64{}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<16), 1<<24)
	for sc.Scan() {
		var o struct {
			ID          string   `json:"id"`
			Status      string   `json:"status"`
			ScheduledMS float64  `json:"scheduled_ms"`
			SentMS      *float64 `json:"sent_ms"`
			TerminalMS  float64  `json:"terminal_ms"`
		}
		if err := json.Unmarshal(sc.Bytes(), &o); err != nil {
			return nil, 0, err
		}
		if o.Status != string(record.StatusSuccess) || o.SentMS == nil {
			continue
		}
		round, session, _ := strings.Cut(o.ID, "#")
		sp, ok := spans[session]
		if !ok {
			sp = [2]float64{*o.SentMS, o.TerminalMS}
		}
		sp[0], sp[1] = min(sp[0], *o.SentMS), max(sp[1], o.TerminalMS)
		spans[session] = sp
		if round != "r1" {
			lags = append(lags, *o.SentMS-o.ScheduledMS)
		}
	}
	type edge struct {
		at   float64
		step int
	}
	var edges []edge
	for _, sp := range spans {
		edges = append(edges, edge{sp[0], 1}, edge{sp[1], -1})
	}
	slices.SortFunc(edges, func(a, b edge) int {
		if a.at != b.at {
			return cmp.Compare(a.at, b.at)
		}
		return cmp.Compare(a.step, b.step) // an end before a start at the same instant
	})
	n, peak := 0, 0
	for _, e := range edges {
		n += e.step
		peak = max(peak, n)
	}
	return lags, peak, sc.Err()
}
