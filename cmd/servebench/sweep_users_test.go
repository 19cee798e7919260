package main

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
	"github.com/servebench/servebench/servebench/llmdreport"
	"github.com/servebench/servebench/sweepreport"
)

func TestSweepUsersAutoFindsTheSLOConcurrency(t *testing.T) {
	// A front admits at most 3 requests at once and answers 429 to a
	// fourth. With a 150 ms think time each user's next request comes long
	// after its last one left the front, so 3 closed-loop users are never
	// refused and 4 always are (the fourth user's first request at least:
	// 23 of 24 at most, below 0.99). The search tries 1, 2 and 4, then 3:
	// the bracket is [3, 4].
	sim, err := simengine.Start(context.Background(), func() simengine.Config {
		c := simengine.DefaultConfig()
		c.TimeScale = 0.1
		return c
	}())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = sim.Close() })
	var inflight atomic.Int64
	front := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost {
			if inflight.Add(1) > 3 {
				inflight.Add(-1)
				http.Error(w, "busy", http.StatusTooManyRequests)
				return
			}
			defer inflight.Add(-1)
		}
		sim.Handler().ServeHTTP(w, r)
	}))
	t.Cleanup(front.Close)
	url := front.URL
	out := t.TempDir()
	code, stdout, stderr := runCLI("sweep", "--base-url", url, "--model", "simengine-tiny", "--endpoint", "chat",
		"--workload", writeWorkload(t, twoRows), "--users", "auto", "--auto-max-users", "16", "--count", "24",
		"--boundary-runs", "1", "--min-attainment", "0.99", "--think-time", "150ms", "--output", out, "--no-progress", "--skip-preflight")
	if code != 0 {
		t.Fatalf("exit %d, stdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	data, err := os.ReadFile(filepath.Join(out, sweepreport.JSONFile))
	if err != nil {
		t.Fatal(err)
	}
	var res sweepreport.Result
	if err := json.Unmarshal(data, &res); err != nil {
		t.Fatal(err)
	}
	c := res.Capacity
	if c.Unit != "users" || c.Low == nil || c.High == nil || *c.Low != 3 || *c.High != 4 || *res.SLOConcurrencyUsers != 3 || res.KneeRPS != nil {
		t.Fatalf("capacity %+v, SLO concurrency %v, knee %v\n%s", c, res.SLOConcurrencyUsers, res.KneeRPS, stdout)
	}
	if !strings.Contains(stdout, "SLO concurrency: 3 users") || !strings.Contains(stdout, "answer: SLO concurrency between 3 and 4 users; confidence in the bracket ") {
		t.Errorf("stdout:\n%s", stdout)
	}
	for _, d := range []string{"users-1", "users-2", "users-3", "users-4"} {
		for _, f := range []string{"report.json", llmdreport.FileJSON} {
			if _, err := os.Stat(filepath.Join(out, d, f)); err != nil {
				t.Errorf("%s: %v", d, err)
			}
		}
	}
}

func TestSweepUsersAutoBadInput(t *testing.T) {
	wl := writeWorkload(t, twoRows)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"sweep", "--users", "auto", "--rates", "1,2"}, "--users auto searches the users; give no --rates"},
		{[]string{"sweep", "--users", "auto", "--arrival", "poisson"}, "--users auto: the search runs a closed loop, got --arrival poisson"},
		{[]string{"run", "--users", "auto", "--arrival", "closed"}, "--users auto: only sweep searches the users"},
		{[]string{"run", "--users", "many"}, `want a number of users or auto, got "many"`},
	} {
		args := append(tc.args, "--base-url", "http://127.0.0.1:1", "--model", "m", "--workload", wl, "--count", "4", "--output", t.TempDir())
		code, _, stderr := runCLI(args...)
		if code != 1 || !strings.Contains(stderr, tc.want) {
			t.Errorf("%v: exit %d, stderr %q; want 1 and %q", tc.args, code, stderr, tc.want)
		}
	}
}

// sessionRows is one conversation of two turns, cycled into sessions.
const sessionRows = `{"id":"s-1","conversation":"s","turn":1,"messages":[{"role":"user","content":"plan the fix"}],"max_tokens":4,"ignore_eos":true}
{"id":"s-2","conversation":"s","turn":2,"think_ms":10,"messages":[{"role":"user","content":"plan the fix"},{"role":"assistant","content":"x"},{"role":"user","content":"now apply it"}],"max_tokens":4,"ignore_eos":true}
`

// Over a workload of sessions, --users auto searches the most concurrent
// agents whose session attainment meets the target: the front admits 3
// requests at once and holds each 150 ms, so 3 agents never see a refusal
// and the fourth of 4 agents started together always does (a session whose
// first turn is refused fails whole). The search tries 1, 2 and 4, then
// 3: the bracket is [3, 4] agents.
func TestSweepUsersAutoOverSessionsFindsTheAgentCapacity(t *testing.T) {
	sim, err := simengine.Start(context.Background(), func() simengine.Config {
		c := simengine.DefaultConfig()
		c.TimeScale = 0.1
		return c
	}())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = sim.Close() })
	var inflight atomic.Int64
	front := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost {
			if inflight.Add(1) > 3 {
				inflight.Add(-1)
				http.Error(w, "busy", http.StatusTooManyRequests)
				return
			}
			defer inflight.Add(-1)
			time.Sleep(150 * time.Millisecond) // every user's request overlaps the others'
		}
		sim.Handler().ServeHTTP(w, r)
	}))
	t.Cleanup(front.Close)
	out := t.TempDir()
	code, stdout, stderr := runCLI("sweep", "--base-url", front.URL, "--model", "simengine-tiny", "--endpoint", "chat",
		"--workload", writeWorkload(t, sessionRows), "--users", "auto", "--auto-max-users", "8", "--count", "6",
		"--boundary-runs", "0", "--min-attainment", "0.99", "--think-time", "50ms", "--output", out, "--no-progress", "--skip-preflight")
	if code != 0 {
		t.Fatalf("exit %d, stdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	data, err := os.ReadFile(filepath.Join(out, sweepreport.JSONFile))
	if err != nil {
		t.Fatal(err)
	}
	var res sweepreport.Result
	if err := json.Unmarshal(data, &res); err != nil {
		t.Fatal(err)
	}
	c := res.Capacity
	// At 3 agents every one of the 6 sessions qualified: the low end pools
	// 6 of 6 sessions, not the 12 requests.
	if c.Unit != "agents" || c.Low == nil || c.High == nil || *c.Low != 3 || *c.High != 4 || c.LowRuns != 1 || c.LowOffered != 6 || c.LowQualified != 6 ||
		c.AgentsPerGPU != nil || c.AgentsPerKW != nil {
		t.Fatalf("capacity %+v\n%s", c, stdout)
	}
	if !strings.Contains(stdout, "agent capacity: 3 agents") || !strings.Contains(stdout, "at the agent capacity, 3 agents:") || !strings.Contains(stdout, "answer: agent capacity between 3 and 4 agents; confidence in the bracket ") {
		t.Errorf("stdout:\n%s", stdout)
	}
}
