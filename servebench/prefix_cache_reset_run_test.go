package servebench_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/servebench/servebench/fixtures/simengine"
	"github.com/servebench/servebench/servebench"
	"github.com/servebench/servebench/servebench/report"
	"github.com/servebench/servebench/servebench/score"
)

// sharedPromptRow is one completions row whose prompt is 64 distinct words
// (four full 16-token blocks of the simulated engine's cache) and a tail.
func sharedPromptRow() string {
	words := make([]string, 64)
	for i := range words {
		words[i] = fmt.Sprintf("w%d", i)
	}
	return fmt.Sprintf(`{"prompt":"%s tail","max_tokens":2,"ignore_eos":true}`+"\n", strings.Join(words, " "))
}

// oneRequestRun runs the row once and returns the report and the cached
// tokens its request reported.
func oneRequestRun(t *testing.T, srv *simengine.Server, reset bool) (*report.Report, int, string) {
	t.Helper()
	dir := t.TempDir()
	res, err := servebench.Run(context.Background(), servebench.RunConfig{
		Workload: workloadOf(t, sharedPromptRow()), Arrival: constant(t, 10), Count: 1,
		Client: clientFor(srv), OutputDir: dir,
		EngineControl: servebench.EngineControl{ResetPrefixCache: reset, CachePolicy: "cold"},
	})
	if err != nil {
		t.Fatal(err)
	}
	outs := outcomesOf(t, res)
	if len(outs) != 1 || outs[0].CachedTokens == nil {
		t.Fatalf("outcomes %+v, want one that reports cached_tokens", outs)
	}
	return res.Report, *outs[0].CachedTokens, dir
}

// TestResetPrefixCacheEmptiesTheEngineCache runs the same one-request
// workload three times against one simulated engine with prefix caching.
// The first run meets an empty cache (0 cached tokens). The second, left
// uncontrolled, finds the 64 tokens of the four full blocks the first
// prefilled. The third resets the cache first and finds 0 again; the
// engine counted exactly that one reset, and the reports say
// "uncontrolled" and "reset", beside the declared policy, also when the
// run is scored again.
func TestResetPrefixCacheEmptiesTheEngineCache(t *testing.T) {
	srv := simengine.StartTest(t, func(c *simengine.Config) { c.TimeScale = 0.1; c.PrefixCaching = true })
	if _, cached, _ := oneRequestRun(t, srv, false); cached != 0 {
		t.Fatalf("first run: %d cached tokens, want 0 from a fresh engine", cached)
	}
	rep, cached, _ := oneRequestRun(t, srv, false)
	if cached != 64 || rep.CacheState != report.CacheStateUncontrolled || rep.CacheResetRoute != "" {
		t.Fatalf("uncontrolled run: %d cached tokens, state %q route %q; want 64, uncontrolled, none", cached, rep.CacheState, rep.CacheResetRoute)
	}
	rep, cached, dir := oneRequestRun(t, srv, true)
	if cached != 0 || rep.CacheState != report.CacheStateReset || rep.CacheResetRoute != "/reset_prefix_cache" || rep.CachePolicy != "cold" {
		t.Fatalf("reset run: %d cached tokens, state %q route %q policy %q; want 0, reset, /reset_prefix_cache, cold",
			cached, rep.CacheState, rep.CacheResetRoute, rep.CachePolicy)
	}
	if n := srv.Stats().PrefixCacheResets; n != 1 {
		t.Fatalf("the engine counted %d resets, want 1", n)
	}
	again, err := score.RunDir(dir, score.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if again.CacheState != report.CacheStateReset || again.CachePolicy != "cold" {
		t.Fatalf("rescored: state %q policy %q, want reset and cold", again.CacheState, again.CachePolicy)
	}
	b, err := os.ReadFile(filepath.Join(dir, "report.json"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), `"cache_state": "reset"`) || !strings.Contains(string(b), `"cache_policy": "cold"`) {
		t.Fatalf("report.json lacks cache_state reset or cache_policy cold")
	}
}

// TestResetPrefixCacheFailureSendsNothing puts the simulated engine behind
// a server that answers its reset route 404, as vLLM does without
// VLLM_SERVER_DEV_MODE=1, and SGLang's 404 too: the run fails before
// anything is sent or written, and the error gives both answers and names
// the variable.
func TestResetPrefixCacheFailureSendsNothing(t *testing.T) {
	srv := simengine.StartTest(t, func(c *simengine.Config) { c.TimeScale = 0.1; c.PrefixCaching = true })
	front := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/reset_prefix_cache" || r.URL.Path == "/flush_cache" {
			http.Error(w, `{"detail":"Not Found"}`, http.StatusNotFound)
			return
		}
		srv.Handler().ServeHTTP(w, r)
	}))
	t.Cleanup(front.Close)
	c := clientFor(srv)
	c.BaseURL = front.URL
	dir := filepath.Join(t.TempDir(), "run")
	_, err := servebench.Run(context.Background(), servebench.RunConfig{
		Workload: workloadOf(t, sharedPromptRow()), Arrival: constant(t, 10), Count: 1,
		Client: c, OutputDir: dir, EngineControl: servebench.EngineControl{ResetPrefixCache: true},
	})
	if err == nil {
		t.Fatal("the run went on after a failed reset")
	}
	for _, want := range []string{"POST /reset_prefix_cache: HTTP 404: Not Found", "POST /flush_cache: HTTP 404: Not Found", "VLLM_SERVER_DEV_MODE=1"} {
		if !strings.Contains(err.Error(), want) {
			t.Fatalf("error %q does not say %q", err, want)
		}
	}
	if st := srv.Stats(); st.Submitted != 0 || st.PrefixCacheResets != 0 {
		t.Fatalf("the engine saw %d requests and %d resets, want none", st.Submitted, st.PrefixCacheResets)
	}
	if _, statErr := os.Stat(filepath.Join(dir, "schedule.json")); !os.IsNotExist(statErr) {
		t.Fatalf("schedule.json was written (%v)", statErr)
	}
}

// TestResetPrefixCacheRouteByEngineKind: behind a server that does not
// serve vLLM's route (SGLang's case), an engine of unknown kind is reset
// through /flush_cache after the 404, and one declared sglang through
// /flush_cache alone; the simulated engine counts both resets.
func TestResetPrefixCacheRouteByEngineKind(t *testing.T) {
	srv := simengine.StartTest(t, func(c *simengine.Config) { c.TimeScale = 0.1; c.PrefixCaching = true })
	var vllmCalls atomic.Int32
	front := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/reset_prefix_cache" {
			vllmCalls.Add(1)
			http.NotFound(w, r)
			return
		}
		srv.Handler().ServeHTTP(w, r)
	}))
	t.Cleanup(front.Close)
	for _, kind := range []string{"", "sglang"} {
		c := clientFor(srv)
		c.BaseURL = front.URL
		cfg := servebench.RunConfig{
			Workload: workloadOf(t, sharedPromptRow()), Arrival: constant(t, 10), Count: 1,
			Client: c, OutputDir: t.TempDir(), EngineControl: servebench.EngineControl{ResetPrefixCache: true},
		}
		if kind != "" {
			cfg.Engine = &report.EngineInfo{Kind: kind}
		}
		res, err := servebench.Run(context.Background(), cfg)
		if err != nil {
			t.Fatalf("kind %q: %v", kind, err)
		}
		if res.Report.CacheResetRoute != "/flush_cache" || res.Report.CacheState != report.CacheStateReset {
			t.Fatalf("kind %q: route %q state %q, want /flush_cache and reset", kind, res.Report.CacheResetRoute, res.Report.CacheState)
		}
	}
	if vllmCalls.Load() != 1 || srv.Stats().PrefixCacheResets != 2 {
		t.Fatalf("vLLM's route tried %d times, %d resets done; want 1 (the unknown kind only) and 2", vllmCalls.Load(), srv.Stats().PrefixCacheResets)
	}
}
