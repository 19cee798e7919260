package servebench_test

import (
	"bufio"
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

// agentSessionRows is one session of rounds rounds, each after a 50 ms
// tool wait, its later rounds carrying the earlier answers.
func agentSessionRows(rounds int) string {
	var sb strings.Builder
	msgs := `{"role":"user","content":"open the failing test"}`
	for k := 1; k <= rounds; k++ {
		think := ""
		if k > 1 {
			think = `,"think_ms":50`
			msgs += `,{"role":"assistant","content":"x"},{"role":"user","content":"tool result ` + fmt.Sprint(k) + `"}`
		}
		fmt.Fprintf(&sb, `{"id":"r%d","conversation":"agent","turn":%d%s,"messages":[%s],"max_tokens":4,"ignore_eos":true}`+"\n", k, k, think, msgs)
	}
	return sb.String()
}

// BenchmarkAgentSessions runs 1,000 concurrent agents (closed-loop users)
// against the simulated engine, each one session of 5 rounds with a 50 ms
// tool wait before each later round, and reports the lag of each later
// round's send behind its due time (its previous round's end plus the tool
// wait): p99 and max over the 4,000 later rounds, in ms. The target is a
// p99 of at most 5 ms. ns/op is one whole run.
//
//	go test -run '^$' -bench AgentSessions -benchtime 3x ./servebench
func BenchmarkAgentSessions(b *testing.B) {
	const agents, rounds = 1000, 5
	engine, err := simengine.Start(context.Background(), func() simengine.Config {
		c := simengine.DefaultConfig()
		c.TimeScale, c.MaxRunningSequences = 0.01, 2*agents
		return c
	}())
	if err != nil {
		b.Fatal(err)
	}
	defer engine.Close()
	w, err := schedule.ParseWorkload("agents.jsonl", []byte(agentSessionRows(rounds)))
	if err != nil {
		b.Fatal(err)
	}
	client := &openai.Client{BaseURL: engine.BaseURL(), Model: "simengine-tiny", Endpoint: record.EndpointChat, TotalTimeout: 30 * time.Second}
	var p99, worst float64
	b.ResetTimer()
	for range b.N {
		res, err := servebench.Run(context.Background(), servebench.RunConfig{
			Workload: w, ClosedLoop: &schedule.ClosedLoop{Users: agents}, Count: agents, Client: client, OutputDir: b.TempDir(),
		})
		if err != nil {
			b.Fatal(err)
		}
		lags, err := laterRoundLags(res.Dir)
		if err != nil {
			b.Fatal(err)
		}
		if len(lags) != agents*(rounds-1) {
			b.Fatalf("%d later rounds succeeded, want %d", len(lags), agents*(rounds-1))
		}
		slices.Sort(lags)
		p99 = max(p99, lags[(len(lags)*99+99)/100-1]) // nearest rank
		worst = max(worst, lags[len(lags)-1])
	}
	b.ReportMetric(p99, "p99-round-lag-ms")
	b.ReportMetric(worst, "max-round-lag-ms")
}

// laterRoundLags reads a run's outcomes: the send lag (sent − scheduled,
// where a later round is scheduled at its previous round's end plus the
// tool wait) of every successful round but the first.
func laterRoundLags(dir string) ([]float64, error) {
	f, err := os.Open(filepath.Join(dir, record.OutcomesFile))
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var lags []float64
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<16), 1<<24)
	for sc.Scan() {
		var o struct {
			ID          string   `json:"id"`
			Status      string   `json:"status"`
			ScheduledMS float64  `json:"scheduled_ms"`
			SentMS      *float64 `json:"sent_ms"`
		}
		if err := json.Unmarshal(sc.Bytes(), &o); err != nil {
			return nil, err
		}
		if o.Status == string(record.StatusSuccess) && o.SentMS != nil && !strings.HasPrefix(o.ID, "r1#") && o.ID != "r1" {
			lags = append(lags, *o.SentMS-o.ScheduledMS)
		}
	}
	return lags, sc.Err()
}
