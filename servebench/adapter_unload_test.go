package servebench_test

import (
	"context"
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/servebench/servebench/fixtures/simengine"
	"github.com/servebench/servebench/servebench"
	"github.com/servebench/servebench/servebench/openai"
	"github.com/servebench/servebench/servebench/schedule"
)

// servedModels lists the ids GET /v1/models answers with.
func servedModels(t *testing.T, srv *simengine.Server) []string {
	t.Helper()
	resp, err := http.Get(srv.BaseURL() + "/v1/models")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var list struct {
		Data []struct {
			ID string `json:"id"`
		} `json:"data"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&list); err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, m := range list.Data {
		ids = append(ids, m.ID)
	}
	return ids
}

// A run that loads its adapters itself unloads them when it is over, so
// the engine serves what it served before; with KeepAdapters they stay,
// and a second run's load of them is refused.
func TestRunUnloadsTheAdaptersItLoaded(t *testing.T) {
	srv := simengine.StartTest(t, nil)
	mix, err := schedule.ParseAdapterMix("sql=1,base=1")
	if err != nil {
		t.Fatal(err)
	}
	loads, err := openai.ParseAdapterLoads("sql=/models/sql")
	if err != nil {
		t.Fatal(err)
	}
	cfg := servebench.RunConfig{Workload: workloadOf(t, `{"prompt":"hello there","max_tokens":2}`), Arrival: constant(t, 20), Count: 4,
		Client: clientFor(srv), OutputDir: t.TempDir(), LoRA: servebench.LoRAConfig{Mix: mix, Load: loads}}
	res, err := servebench.Run(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Report.AdapterLoads) != 1 || res.Report.ProtocolSuccesses != 4 {
		t.Fatalf("loads %+v, %d of 4 succeeded", res.Report.AdapterLoads, res.Report.ProtocolSuccesses)
	}
	if got := servedModels(t, srv); !slices.Equal(got, []string{"simengine-tiny"}) {
		t.Errorf("after the run the engine serves %v, want the base model alone", got)
	}

	cfg.OutputDir, cfg.LoRA.Keep = t.TempDir(), true
	if _, err := servebench.Run(context.Background(), cfg); err != nil {
		t.Fatalf("a second run, after the first unloaded sql: %v", err)
	}
	if got := servedModels(t, srv); !slices.Contains(got, "sql") {
		t.Errorf("with KeepAdapters the engine serves %v, want sql still", got)
	}
	cfg.OutputDir = t.TempDir()
	if _, err := servebench.Run(context.Background(), cfg); err == nil || !strings.Contains(err.Error(), "has already been loaded") {
		t.Errorf("a load of a kept adapter: %v, want the engine's refusal", err)
	}
}

// When a load fails, the adapters loaded before it are unloaded again:
// the engine serves chat already, so loading sql then chat loads sql,
// fails on chat, and leaves the engine serving chat alone.
func TestAFailedLoadUnloadsTheLoadsBeforeIt(t *testing.T) {
	srv := simengine.StartTest(t, func(c *simengine.Config) { c.Adapters = []string{"chat"} })
	loads, err := openai.ParseAdapterLoads("sql=/models/sql,chat=/models/chat")
	if err != nil {
		t.Fatal(err)
	}
	cfg := servebench.RunConfig{Workload: workloadOf(t, `{"prompt":"hello there","max_tokens":2}`), Arrival: constant(t, 20), Count: 1,
		Client: clientFor(srv), OutputDir: t.TempDir(), LoRA: servebench.LoRAConfig{Load: loads}}
	done, err := servebench.LoadAdapters(context.Background(), cfg)
	if err == nil || !strings.Contains(err.Error(), `load adapter "chat"`) {
		t.Fatalf("LoadAdapters: %v, want chat's load refused", err)
	}
	if len(done) != 1 || done[0].Adapter != "sql" {
		t.Errorf("loads returned %+v, want sql's", done)
	}
	if got := servedModels(t, srv); !slices.Equal(got, []string{"simengine-tiny", "chat"}) {
		t.Errorf("after the failed load the engine serves %v, want the base model and chat", got)
	}
}
