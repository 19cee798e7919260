package suites

import (
	"context"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/servebench/servebench/servebench"
	"github.com/servebench/servebench/servebench/compare"
	"github.com/servebench/servebench/servebench/openai"
)

// Every run starts fresh engines only when servebench starts both and
// reuse_engines is not set.
func TestFreshEnginesOnlyWhenServebenchStartsBoth(t *testing.T) {
	contract := func(reuse bool, baseURL string) *Contract {
		c := &Contract{Name: "fresh", Engine: &EngineSpec{Kind: "simengine", Args: []string{"--step-base=32ms"}},
			Baseline: &BaselineSpec{Engine: &EngineSpec{Kind: "simengine", Args: []string{"--step-base=8ms"}}, ReuseEngines: reuse}}
		if baseURL != "" {
			c.Baseline.Engine, c.Baseline.BaseURL = nil, baseURL
		}
		return c
	}
	if !contract(false, "").freshEngines() {
		t.Error("two engine specs: not fresh")
	}
	if contract(true, "").freshEngines() {
		t.Error("reuse_engines: true: fresh")
	}
	if contract(false, "http://127.0.0.1:9").freshEngines() {
		t.Error("a baseline base_url: fresh")
	}
	c := contract(false, "")
	sharedMu.Lock()
	old := shared
	shared = map[string]sharedEngine{c.Engine.key(): {}}
	sharedMu.Unlock()
	defer func() { sharedMu.Lock(); shared = old; sharedMu.Unlock() }()
	if c.freshEngines() {
		t.Error("a SharedEngine candidate: fresh")
	}
}

// Baseline and candidate are one server when both engine sections are the
// same and SharedEngine started it, or both name one base URL; different
// engine sections, or the same section started fresh per run, are not.
func TestSameServerWhenOneEngineServesBothSides(t *testing.T) {
	spec := func(step string) *EngineSpec {
		return &EngineSpec{Kind: "simengine", Args: []string{"--step-base=" + step}}
	}
	same := &Contract{Name: "aa", Engine: spec("8ms"), Baseline: &BaselineSpec{Engine: spec("8ms")}}
	if w := same.sameServer(); w != "" {
		t.Errorf("identical sections started fresh: %q", w)
	}
	sharedMu.Lock()
	old := shared
	shared = map[string]sharedEngine{same.Engine.key(): {}}
	sharedMu.Unlock()
	defer func() { sharedMu.Lock(); shared = old; sharedMu.Unlock() }()
	if w := same.sameServer(); w == "" {
		t.Error("identical sections under SharedEngine: no warning")
	}
	if w := (&Contract{Engine: spec("32ms"), Baseline: &BaselineSpec{Engine: spec("8ms")}}).sameServer(); w != "" {
		t.Errorf("different sections: %q", w)
	}
	urls := &Contract{BaseURL: "http://127.0.0.1:9", Baseline: &BaselineSpec{BaseURL: "http://127.0.0.1:9"}}
	if w := urls.sameServer(); w == "" {
		t.Error("one base URL on both sides: no warning")
	}
}

// The starter points the run at a freshly started engine and stops it.
func TestABEngineStarterStartsAndStops(t *testing.T) {
	c := &Contract{Name: "fresh", Engine: &EngineSpec{Kind: "simengine"}, Baseline: &BaselineSpec{Engine: &EngineSpec{Kind: "simengine"}}}
	s := &abEngineStarter{c: c, log: io.Discard, dir: t.TempDir()}
	cfg := servebench.RunConfig{Client: &openai.Client{Model: "m"}}
	original := cfg.Client
	stop, err := s.start(context.Background(), compare.Baseline, &cfg)
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Client == original || cfg.Client.BaseURL == "" || original.BaseURL != "" {
		t.Fatalf("client %+v (the original must stay untouched: %+v)", cfg.Client, original)
	}
	client := &http.Client{Timeout: 5 * time.Second}
	resp, err := client.Get(cfg.Client.BaseURL + "/v1/models")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Errorf("GET /v1/models: %d", resp.StatusCode)
	}
	stop()
	if resp, err := client.Get(cfg.Client.BaseURL + "/v1/models"); err == nil {
		resp.Body.Close()
		t.Error("the engine still answers after stop")
	}
}

// Before any load a contract's A/B plan is checked as ab checks it: 40
// requests a round over 4 fixed rounds cannot decide a 1-point attainment
// tolerance, and the check names the requests a round that can; a replay,
// whose size is not known before the run, is not checked.
func TestPlanCheckBeforeTheLoad(t *testing.T) {
	c := &Contract{Name: "plan", Count: 40, Baseline: &BaselineSpec{Rounds: 4, Confidence: 0.95,
		Tolerances: []compare.Tolerance{{Name: "attainment", Value: 0.01}}}}
	got := c.planCheck(LoadPoint{RateRPS: 4})
	if !strings.Contains(got, "CANNOT decide") || !strings.Contains(got, "a 1 pt attainment tolerance needs about 254 requests a round (this plan: 40)") {
		t.Errorf("plan check:\n%s", got)
	}
	c.Count = 0
	if got := c.planCheck(LoadPoint{Name: "replay at x1"}); got != "" {
		t.Errorf("a replay was checked:\n%s", got)
	}
}
