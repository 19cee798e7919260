package servebench_test

import (
	"reflect"
	"testing"
	"time"

	"github.com/servebench/servebench/servebench"
	"github.com/servebench/servebench/servebench/llmdreport"
	"github.com/servebench/servebench/servebench/openai"
	"github.com/servebench/servebench/servebench/report"
	"github.com/servebench/servebench/servebench/schedule"
	"github.com/servebench/servebench/servebench/score"
)

// Settings.RunConfig copies every setting to the RunConfig field of the same
// name, and sets the arrival from its spec. Every field of Settings is set
// here, so a setting added without its mapping fails this test.
func TestSettingsMapEverySetting(t *testing.T) {
	mix, err := schedule.ParseAdapterMix("sql=1")
	if err != nil {
		t.Fatal(err)
	}
	s := servebench.Settings{
		Workload:         workloadOf(t, `{"id":"a","prompt":"x","max_tokens":2}`),
		Arrival:          schedule.ArrivalSpec{Process: schedule.ProcessConstant, RateRPS: 4},
		Count:            3,
		Duration:         time.Minute,
		Warmup:           2,
		MaxConcurrency:   8,
		ResetPrefixCache: true,
		CachePolicy:      "warm",
		EngineStarts:     []report.EngineStart{{StartedMS: 1}},
		LagTolerance:     time.Second,
		Client:           openai.NewClient("http://127.0.0.1:1", "m"),
		LoRA: servebench.LoRAConfig{Mix: mix, Load: []openai.AdapterLoad{{Name: "sql", Path: "/sql"}},
			LoadTimeout: time.Minute, Keep: true, Loaded: []report.AdapterLoad{{Adapter: "sql"}}},
		EngineMetrics: servebench.EngineMetricsConfig{URL: "http://127.0.0.1:1/metrics",
			BackendURLs: []string{"http://127.0.0.1:2/metrics"}, Interval: time.Second},
		TurnHistory:  schedule.TurnHistoryWorkload,
		Score:        score.Options{SLO: report.SLO{TTFT: time.Second}},
		KeepRequests: true,
		Engine:       &report.EngineInfo{Kind: "vllm"},
		Labels:       map[string]any{"k": "v"},
		Artifacts:    []servebench.ArtifactWriter{llmdreport.Writer{Format: llmdreport.JSON}},
		OutputDir:    t.TempDir(),
		RunID:        "0190b8a4-0000-7000-8000-000000000000",
		Shard:        &schedule.Shard{Index: 0, Count: 2},
		StartAt:      time.Now().Add(time.Hour),
	}
	cfg, err := s.RunConfig()
	if err != nil {
		t.Fatal(err)
	}
	sv, cv := reflect.ValueOf(s), reflect.ValueOf(cfg)
	for i := range sv.NumField() {
		name := sv.Type().Field(i).Name
		if sv.Field(i).IsZero() {
			t.Errorf("Settings.%s is not set by this test", name)
		}
		if name == "Arrival" {
			continue
		}
		got := cv.FieldByName(name)
		if !got.IsValid() || !reflect.DeepEqual(got.Interface(), sv.Field(i).Interface()) {
			t.Errorf("RunConfig.%s = %v, want Settings.%s = %v", name, got, name, sv.Field(i))
		}
	}
	if cfg.Arrival == nil || !reflect.DeepEqual(cfg.Arrival.Spec(), s.Arrival) || cfg.ClosedLoop != nil {
		t.Errorf("arrival %v, closed loop %v; want %+v", cfg.Arrival, cfg.ClosedLoop, s.Arrival)
	}
	s.Arrival = schedule.ArrivalSpec{Process: schedule.ProcessClosed, Users: 3, ThinkTimeMS: 250}
	if cfg, err = s.RunConfig(); err != nil || cfg.Arrival != nil || *cfg.ClosedLoop != (schedule.ClosedLoop{Users: 3, ThinkTime: 250 * time.Millisecond}) {
		t.Errorf("closed loop: %v, %+v", err, cfg.ClosedLoop)
	}
	s.Arrival = schedule.ArrivalSpec{Process: schedule.ProcessPoisson}
	if _, err := s.RunConfig(); err == nil {
		t.Error("a Poisson arrival without a rate was accepted")
	}
}

// RunConfig's settings come in groups (LoRA, EngineMetrics, Score), so that
// it stays at 25 exported fields or fewer.
func TestRunConfigFieldsAreGrouped(t *testing.T) {
	n := 0
	for f := range reflect.TypeFor[servebench.RunConfig]().Fields() {
		if f.IsExported() {
			n++
		}
	}
	if n > 25 {
		t.Errorf("RunConfig has %d exported fields, want at most 25: put the new ones in a group", n)
	}
}
