package servebench_test

import (
	"context"
	"math"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/servebench/servebench/fixtures/simengine"
	"github.com/servebench/servebench/servebench"
	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/servebench/report/render"
	"github.com/servebench/servebench/servebench/schedule"
)

// TestRunShowsTheColdStartOfAdaptersOverFewerSlots runs a mix of 3
// adapters and the base model against the simulated engine with 2
// resident slots and a load cost. The requests arrive 100 ms apart, one
// at a time, so the engine sees them in schedule order: the test replays
// that order through an LRU of 2 to count the loads by hand, and wants
// the engine's count. Each adapter's cold request loaded it, so its TTFT
// is at least the load cost (a lower bound: the engine's step cannot end
// sooner). How much faster its warm requests were is client timing, which a
// busy machine stretches; the test checks instead that the breakdown's cold
// and warm figures are exactly those of the adapter's first-sent request and
// of its other successes, found in the outcomes by hand.
func TestRunShowsTheColdStartOfAdaptersOverFewerSlots(t *testing.T) {
	const modelLoad = 300 * time.Millisecond
	const timeScale = 0.1
	loadCost := time.Duration(float64(modelLoad) * timeScale) // 30 ms of wall time
	srv := simengine.StartTest(t, func(c *simengine.Config) {
		c.TimeScale, c.Adapters, c.AdapterSlots, c.AdapterLoadCost = timeScale, []string{"sql", "chat", "code"}, 2, modelLoad
	})
	mix, err := schedule.ParseAdapterMix("sql=0.6,chat=0.15,code=0.15,base=0.1")
	if err != nil {
		t.Fatal(err)
	}
	res, err := servebench.Run(context.Background(), servebench.RunConfig{
		Workload: workloadOf(t, `{"prompt":"hello there","max_tokens":2,"ignore_eos":true}`), Arrival: constant(t, 10), Count: 30,
		Client: clientFor(srv), OutputDir: t.TempDir(), LoRA: servebench.LoRAConfig{Mix: mix},
	})
	if err != nil {
		t.Fatal(err)
	}

	// The loads by hand: an LRU of 2 over the schedule's adapters (a run
	// keeps the schedule's header only; its entries are in schedule.json).
	sched, _, err := schedule.Read(filepath.Join(res.Dir, record.ScheduleFile))
	if err != nil {
		t.Fatal(err)
	}
	var resident []string
	loads, counts := 0, map[string]int{}
	warmHits := map[string]int{}
	seen := map[string]bool{}
	for _, e := range sched.Entries {
		counts[e.Adapter]++
		if e.Adapter == schedule.BaseAdapter {
			continue
		}
		if i := slices.Index(resident, e.Adapter); i >= 0 {
			resident = append(slices.Delete(resident, i, i+1), e.Adapter)
			if seen[e.Adapter] {
				warmHits[e.Adapter]++
			}
		} else {
			loads++
			if len(resident) == 2 {
				resident = resident[1:]
			}
			resident = append(resident, e.Adapter)
		}
		seen[e.Adapter] = true
	}
	if got := srv.Stats().AdapterLoads; got != uint64(loads) {
		t.Fatalf("the engine loaded adapters %d times, the schedule's order through 2 slots gives %d", got, loads)
	}
	for _, o := range outcomesOf(t, res) {
		if o.Adapter == "" {
			t.Fatalf("outcome %s has no adapter", o.ID)
		}
	}

	bd := res.Report.Breakdown["adapter"]
	if bd == nil || len(bd.Values) != 4 {
		t.Fatalf("breakdown by adapter %+v, want sql, chat, code and base", bd)
	}
	best, bestHits := "", 0
	for name, v := range bd.Values {
		if v.Offered != counts[name] {
			t.Errorf("%s: offered %d, the schedule has %d", name, v.Offered, counts[name])
		}
		if name == schedule.BaseAdapter {
			continue
		}
		if v.ColdTTFTMS == nil || *v.ColdTTFTMS < ms(loadCost) {
			t.Errorf("%s: cold TTFT %v ms, want at least the load cost %v ms", name, v.ColdTTFTMS, ms(loadCost))
		}
		if warm := counts[name] - 1; warmHits[name] > warm/2 && warmHits[name] > bestHits {
			best, bestHits = name, warmHits[name]
		}
	}
	if best == "" {
		t.Fatalf("no adapter has mostly resident warm requests (hits %v, counts %v): the fixture lost its case", warmHits, counts)
	}
	v := bd.Values[best]
	t.Logf("%d loads; counts %v; resident warm requests %v; %s: cold %v ms", loads, counts, warmHits, best, *v.ColdTTFTMS)
	var cold *record.Outcome
	warm := 0
	for i := range outcomesOf(t, res) {
		o := &outcomesOf(t, res)[i]
		if o.Adapter != best || o.SentMS == nil {
			continue
		}
		if cold == nil || *o.SentMS < *cold.SentMS {
			cold = o
		}
	}
	for _, o := range outcomesOf(t, res) {
		if o.Adapter == best && o.ID != cold.ID && o.Status == record.StatusSuccess && o.FirstContentMS != nil {
			warm++
		}
	}
	if v.ColdRequest != cold.ID || cold.Status != record.StatusSuccess ||
		math.Abs(*v.ColdTTFTMS-(*cold.FirstContentMS-*cold.SentMS)) > 1e-6 {
		t.Errorf("%s: cold request %q with TTFT %v ms, want the first sent, %q, and its TTFT", best, v.ColdRequest, *v.ColdTTFTMS, cold.ID)
	}
	if v.WarmTTFT == nil || v.WarmTTFT.N != warm || warm == 0 {
		t.Errorf("%s: warm TTFT %+v, want the %d other successful requests", best, v.WarmTTFT, warm)
	}
	var text strings.Builder
	if err := render.Text(&text, res.Report); err != nil || !strings.Contains(text.String(), "cold TTFT ms") {
		t.Errorf("text report (%v) lacks the cold TTFT", err)
	}
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// TestPreflightRefusesAnAdapterTheEngineDoesNotList: the engine lists sql
// only, and the mix names chat too.
func TestPreflightRefusesAnAdapterTheEngineDoesNotList(t *testing.T) {
	srv := simengine.StartTest(t, func(c *simengine.Config) { c.TimeScale, c.Adapters = 0.1, []string{"sql"} })
	mix, _ := schedule.ParseAdapterMix("sql=1,chat=1,base=1")
	cfg := servebench.RunConfig{Workload: workloadOf(t, `{"prompt":"hi","max_tokens":2}`), Arrival: constant(t, 10), Count: 1,
		Client: clientFor(srv), OutputDir: t.TempDir(), LoRA: servebench.LoRAConfig{Mix: mix}}
	_, err := servebench.PreflightRun(context.Background(), cfg)
	if err == nil || !strings.Contains(err.Error(), `adapter "chat" not served here`) {
		t.Fatalf("preflight: %v", err)
	}
	if got := srv.Stats().Submitted; got != 0 {
		t.Errorf("the engine got %d requests before the refusal", got)
	}
	mix, _ = schedule.ParseAdapterMix("sql=1,base=1")
	cfg.LoRA.Mix = mix
	if _, err := servebench.PreflightRun(context.Background(), cfg); err != nil {
		t.Errorf("a served mix: %v", err)
	}
}
