package servebench_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/servebench/servebench/fixtures/simengine"
	"github.com/servebench/servebench/servebench"
	"github.com/servebench/servebench/servebench/openai"
	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/servebench/report"
	"github.com/servebench/servebench/servebench/report/render"
	"github.com/servebench/servebench/servebench/schedule"
	"github.com/servebench/servebench/servebench/score"
)

// TestRunLoadsTwoAdaptersBeforeTheLoad: the engine serves no adapter, and
// the run loads sql and chat (AdapterLoadCost 300 ms of model time at
// TimeScale 0.1: 30 ms of wall time each, a lower bound on each load's
// time). The loads go first, then the preflight, which now finds both in
// GET /v1/models, then the run, whose requests to both succeed. The
// engine counts two runtime loads and no scheduler load (a loaded adapter
// is resident), and the report carries each load in order, with its time
// in the adapter breakdown too.
func TestRunLoadsTwoAdaptersBeforeTheLoad(t *testing.T) {
	const modelLoad, timeScale = 300 * time.Millisecond, 0.1
	loadCost := ms(time.Duration(float64(modelLoad) * timeScale))
	srv := simengine.StartTest(t, func(c *simengine.Config) { c.TimeScale, c.AdapterLoadCost = timeScale, modelLoad })
	mix, err := schedule.ParseAdapterMix("sql=1,chat=1,base=1")
	if err != nil {
		t.Fatal(err)
	}
	if err := mix.SetAssignment(schedule.AssignRoundRobin); err != nil {
		t.Fatal(err)
	}
	loads, err := openai.ParseAdapterLoads("sql=/models/sql, chat=/models/chat")
	if err != nil {
		t.Fatal(err)
	}
	cfg := servebench.RunConfig{Workload: workloadOf(t, `{"prompt":"hello there","max_tokens":2}`), Arrival: constant(t, 20), Count: 6,
		Client: clientFor(srv), OutputDir: t.TempDir(), LoRA: servebench.LoRAConfig{Mix: mix, Load: loads}}
	ctx := context.Background()
	if cfg.LoRA.Loaded, err = servebench.LoadAdapters(ctx, cfg); err != nil {
		t.Fatal(err)
	}
	if _, err := servebench.PreflightRun(ctx, cfg); err != nil {
		t.Fatalf("preflight after the loads: %v", err)
	}
	res, err := servebench.Run(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	if st := srv.Stats(); st.RuntimeAdapterLoads != 2 || st.AdapterLoads != 0 {
		t.Errorf("engine: %d runtime loads, %d scheduler loads; want 2 and 0", st.RuntimeAdapterLoads, st.AdapterLoads)
	}
	for _, o := range outcomesOf(t, res) {
		if o.Status != record.StatusSuccess {
			t.Errorf("request %s to %s: %s %s", o.ID, o.Adapter, o.Status, o.Error)
		}
	}
	got := res.Report.AdapterLoads
	if len(got) != 2 {
		t.Fatalf("adapter_loads %+v, want sql and chat", got)
	}
	bd := res.Report.Breakdown["adapter"]
	for i, want := range loads {
		l := got[i]
		if l.Adapter != want.Name || l.Path != want.Path || l.Route != "/v1/load_lora_adapter" || l.Status != http.StatusOK {
			t.Errorf("load %d: %+v, want %s from %s through /v1/load_lora_adapter, 200", i, l, want.Name, want.Path)
		}
		if l.LoadMS < loadCost {
			t.Errorf("%s: load_ms %v, under the engine's scaled load cost %v ms", l.Adapter, l.LoadMS, loadCost)
		}
		v := bd.Values[l.Adapter]
		if v.Offered != 2 || v.LoadMS == nil || *v.LoadMS != l.LoadMS {
			t.Errorf("breakdown %s: offered %d, load_ms %v; want 2 and %v", l.Adapter, v.Offered, v.LoadMS, l.LoadMS)
		}
	}
	if v := bd.Values[schedule.BaseAdapter]; v.LoadMS != nil {
		t.Errorf("base: load_ms %v, want none", *v.LoadMS)
	}
	var text strings.Builder
	if err := render.Text(&text, res.Report); err != nil || !strings.Contains(text.String(), "Adapters loaded before the run") ||
		!strings.Contains(text.String(), "/models/chat") {
		t.Errorf("text report (%v) lacks the loads:\n%s", err, text.String())
	}
	html, err := os.ReadFile(filepath.Join(res.Dir, record.ReportHTMLFile))
	if err != nil || !strings.Contains(string(html), "<th>load ms</th>") {
		t.Errorf("report.html (%v) lacks the load column", err)
	}
	raw, err := os.ReadFile(filepath.Join(res.Dir, record.ReportFile))
	if err != nil {
		t.Fatal(err)
	}
	var saved struct {
		AdapterLoads []map[string]any `json:"adapter_loads"`
		Breakdown    map[string]struct {
			Values map[string]map[string]any `json:"values"`
		} `json:"breakdown"`
	}
	if err := json.Unmarshal(raw, &saved); err != nil || len(saved.AdapterLoads) != 2 ||
		saved.AdapterLoads[1]["adapter"] != "chat" || saved.AdapterLoads[1]["route"] != "/v1/load_lora_adapter" ||
		saved.AdapterLoads[1]["status"] != 200.0 || saved.AdapterLoads[1]["load_ms"] != got[1].LoadMS ||
		saved.Breakdown["adapter"].Values["chat"]["load_ms"] != got[1].LoadMS {
		t.Errorf("report.json (%v): adapter_loads %v, breakdown chat %v", err, saved.AdapterLoads, saved.Breakdown["adapter"].Values["chat"])
	}
	// Scored again from its files, the run keeps what only the runner saw.
	for _, rescore := range []func() (*report.Report, error){
		func() (*report.Report, error) { return score.RunDir(res.Dir, score.Options{}) },
		func() (*report.Report, error) { return score.RunDirTo(res.Dir, score.Options{}, nil) },
	} {
		again, err := rescore()
		if err != nil {
			t.Fatal(err)
		}
		if len(again.AdapterLoads) != 2 || again.AdapterLoads[1] != got[1] ||
			again.Breakdown["adapter"].Values["chat"].LoadMS == nil || *again.Breakdown["adapter"].Values["chat"].LoadMS != got[1].LoadMS {
			t.Errorf("scored again: adapter_loads %+v", again.AdapterLoads)
		}
	}
}

// TestRunLoadsThroughSGLangsRoute: a run with the SGLang adapter form and
// no loads done beforehand loads its adapter itself, through
// /load_lora_adapter.
func TestRunLoadsThroughSGLangsRoute(t *testing.T) {
	srv := simengine.StartTest(t, func(c *simengine.Config) { c.TimeScale = 0.1 })
	c := clientFor(srv)
	c.AdapterForm = openai.AdapterBaseColon
	res, err := servebench.Run(context.Background(), servebench.RunConfig{Workload: workloadOf(t, `{"prompt":"hi","max_tokens":2}`),
		Arrival: constant(t, 20), Count: 1, Client: c, OutputDir: t.TempDir(),
		LoRA: servebench.LoRAConfig{Load: []openai.AdapterLoad{{Name: "sql", Path: "/models/sql"}}}})
	if err != nil {
		t.Fatal(err)
	}
	if got := res.Report.AdapterLoads; len(got) != 1 || got[0].Route != "/load_lora_adapter" || got[0].Status != http.StatusOK {
		t.Errorf("adapter_loads %+v", got)
	}
	if n := srv.Stats().RuntimeAdapterLoads; n != 1 {
		t.Errorf("the engine loaded %d adapters, want 1", n)
	}
}

// TestADuplicateLoadStopsTheRunBeforeAnyRequest: the engine serves sql
// already and refuses to load it again (vLLM's 400); the run stops with
// the adapter, the route, the status and the engine's message, and the
// engine got no generation request.
func TestADuplicateLoadStopsTheRunBeforeAnyRequest(t *testing.T) {
	srv := simengine.StartTest(t, func(c *simengine.Config) { c.TimeScale, c.Adapters = 0.1, []string{"sql"} })
	dir := t.TempDir()
	_, err := servebench.Run(context.Background(), servebench.RunConfig{Workload: workloadOf(t, `{"prompt":"hi","max_tokens":2}`),
		Arrival: constant(t, 20), Count: 3, Client: clientFor(srv), OutputDir: dir,
		LoRA: servebench.LoRAConfig{Load: []openai.AdapterLoad{{Name: "sql", Path: "/models/sql"}}}})
	want := `load adapter "sql": POST /v1/load_lora_adapter: HTTP 400: The lora adapter 'sql' has already been loaded.`
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("run: %v, want %q", err, want)
	}
	if st := srv.Stats(); st.Submitted != 0 || st.Rejected != 0 {
		t.Errorf("the engine got %d requests (%d rejected) after a failed load", st.Submitted, st.Rejected)
	}
	if _, err := os.Stat(filepath.Join(dir, record.ScheduleFile)); err == nil {
		t.Errorf("schedule.json written after a failed load")
	}
}

// TestAFailingEngineLoadStopsTheRunBeforeAnyRequest: an engine on
// 127.0.0.1 that answers the load with a 500 gets the API key, as every
// call does, and no other request; the error carries its message and not
// the key.
func TestAFailingEngineLoadStopsTheRunBeforeAnyRequest(t *testing.T) {
	var other atomic.Int32
	var auth atomic.Value
	engine := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/v1/load_lora_adapter" {
			other.Add(1)
			http.NotFound(w, r)
			return
		}
		auth.Store(r.Header.Get("Authorization"))
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusInternalServerError)
		_, _ = w.Write([]byte(`{"error":{"message":"CUDA out of memory loading sql-key-9","type":"InternalServerError","code":500}}`))
	}))
	defer engine.Close()
	c := &openai.Client{BaseURL: engine.URL + "/v1", Model: "m", Endpoint: record.EndpointCompletions,
		TotalTimeout: 5 * time.Second, APIKey: "sql-key-9"}
	_, err := servebench.Run(context.Background(), servebench.RunConfig{Workload: workloadOf(t, `{"prompt":"hi","max_tokens":2}`),
		Arrival: constant(t, 20), Count: 3, Client: c, OutputDir: t.TempDir(),
		LoRA: servebench.LoRAConfig{Load: []openai.AdapterLoad{{Name: "sql", Path: "/models/sql"}}}})
	if err == nil || !strings.Contains(err.Error(), `load adapter "sql": POST /v1/load_lora_adapter: HTTP 500: CUDA out of memory`) {
		t.Fatalf("run: %v", err)
	}
	if strings.Contains(err.Error(), "sql-key-9") {
		t.Errorf("the error shows the API key: %v", err)
	}
	if got := auth.Load(); got != "Bearer sql-key-9" {
		t.Errorf("the load call carried Authorization %q", got)
	}
	if n := other.Load(); n != 0 {
		t.Errorf("the engine got %d other requests after the failed load", n)
	}
}

// TestLoadAdaptersAreChecked: a load without a path, of "base", or of a
// name twice is refused before anything is sent.
func TestLoadAdaptersAreChecked(t *testing.T) {
	for in, want := range map[string]string{
		"sql":                   `want NAME=PATH, got "sql"`,
		"sql=":                  `adapter "sql": want a path`,
		"base=/m":               `"base" is the base model`,
		"sql=/a,sql=/b":         `adapter "sql" given twice`,
		"=/a":                   `an adapter without a name`,
		"":                      `want NAME=PATH,..., got nothing`,
		"sql=/models/a=b,c=/d ": "",
	} {
		_, err := openai.ParseAdapterLoads(in)
		if want == "" && err != nil || want != "" && (err == nil || !strings.Contains(err.Error(), want)) {
			t.Errorf("%q: %v, want %q", in, err, want)
		}
	}
}
