package servebench_test

import (
	"strings"
	"testing"
	"time"

	"github.com/servebench/servebench/servebench"
	"github.com/servebench/servebench/servebench/schedule"
)

func TestSettingsArrivalBuildsEveryProcess(t *testing.T) {
	w := workloadOf(t, `{"id":"a","prompt":"x","max_tokens":2,"scheduled_ms":0}
{"id":"b","prompt":"y","max_tokens":2,"scheduled_ms":400}
`)
	for _, tc := range []struct {
		spec schedule.ArrivalSpec
		// want is the first three offsets of an open-loop process.
		want []time.Duration
	}{
		{schedule.ArrivalSpec{Process: schedule.ProcessConstant, RateRPS: 4}, []time.Duration{0, 250 * time.Millisecond, 500 * time.Millisecond}},
		{schedule.ArrivalSpec{Process: schedule.ProcessBurst, RateRPS: 10, BurstSize: 2}, []time.Duration{0, 0, 200 * time.Millisecond}},
		// replay at time scale 0.5: the stored 0 and 400 ms become 0 and 200.
		{schedule.ArrivalSpec{Process: schedule.ProcessReplay, TimeScale: 0.5}, []time.Duration{0, 200 * time.Millisecond}},
	} {
		cfg, err := servebench.Settings{Workload: w, Arrival: tc.spec}.RunConfig()
		if err != nil {
			t.Fatalf("%s: %v", tc.spec.Process, err)
		}
		if cfg.ClosedLoop != nil || cfg.Arrival == nil || cfg.Arrival.Spec().Process != tc.spec.Process {
			t.Fatalf("%s: arrival %v, closed loop %v", tc.spec.Process, cfg.Arrival, cfg.ClosedLoop)
		}
		got, _, err := cfg.Arrival.Offsets(len(tc.want), 0)
		if err != nil || len(got) != len(tc.want) {
			t.Fatalf("%s: offsets %v, %v", tc.spec.Process, got, err)
		}
		for i := range got {
			if got[i] != tc.want[i] {
				t.Fatalf("%s: offsets %v, want %v", tc.spec.Process, got, tc.want)
			}
		}
	}

	cfg, err := servebench.Settings{Workload: w, Arrival: schedule.ArrivalSpec{Process: schedule.ProcessClosed, Users: 3, ThinkTimeMS: 250}}.RunConfig()
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Arrival != nil || cfg.ClosedLoop == nil || *cfg.ClosedLoop != (schedule.ClosedLoop{Users: 3, ThinkTime: 250 * time.Millisecond}) {
		t.Fatalf("closed: arrival %v, closed loop %+v", cfg.Arrival, cfg.ClosedLoop)
	}
}

func TestSettingsArrivalErrors(t *testing.T) {
	for _, tc := range []struct {
		settings servebench.Settings
		spec     schedule.ArrivalSpec
		want     string
	}{
		{servebench.Settings{}, schedule.ArrivalSpec{Process: "uniform", RateRPS: 1},
			`arrival: unknown process "uniform" (want constant, poisson, gamma, burst, replay or closed)`},
		{servebench.Settings{}, schedule.ArrivalSpec{Process: schedule.ProcessPoisson},
			"arrival: RateRPS: poisson rate must be a positive finite number of requests per second, got 0"},
		{servebench.Settings{}, schedule.ArrivalSpec{Process: schedule.ProcessReplay},
			"arrival: replay needs the run's workload first"},
		{servebench.Settings{Workload: workloadOf(t, `{"id":"a","prompt":"x","max_tokens":2}`)},
			schedule.ArrivalSpec{Process: schedule.ProcessReplay}, "w.jsonl:1: scheduled_ms: required for replay"},
	} {
		s := tc.settings
		s.Arrival = tc.spec
		_, err := s.RunConfig()
		if err == nil || err.Error() != tc.want {
			t.Errorf("%s: error %v, want %s", tc.spec.Process, err, tc.want)
		}
	}
}

func TestProcesses(t *testing.T) {
	var sampled, modes []string
	for _, p := range schedule.Processes() {
		if q, err := schedule.ParseProcess(string(p)); err != nil || q != p {
			t.Errorf("ParseProcess(%q) = %q, %v", p, q, err)
		}
		if p.Sampled() {
			sampled = append(sampled, string(p))
		}
		modes = append(modes, string(p.Mode()))
	}
	if strings.Join(sampled, " ") != "constant poisson gamma burst" {
		t.Errorf("sampled processes %v", sampled)
	}
	if strings.Join(modes, " ") != "open open open open open closed" {
		t.Errorf("modes %v", modes)
	}
	if _, err := schedule.ParseProcess("Poisson"); err == nil {
		t.Error("process names are case-sensitive, as in schedules")
	}
}
