package servebench_test

import (
	"context"
	"math"
	"net/http"
	"net/http/httptest"
	"os"
	"reflect"
	"sync/atomic"
	"testing"

	"github.com/servebench/servebench/servebench"
	"github.com/servebench/servebench/servebench/schedule"
)

// A bad rate or shape goes into RunConfig.Arrival without an error to
// check; Run reports it, naming the field, before anything is sent or
// written.
func TestRunRejectsABadArrivalBeforeAnyLoad(t *testing.T) {
	var requests atomic.Int64
	engine := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		requests.Add(1)
		http.Error(w, "no load expected", http.StatusTeapot)
	}))
	defer engine.Close()
	for _, tc := range []struct {
		arrival schedule.Arrival
		want    string
	}{
		{servebench.Poisson(-1, 1), "run: Arrival: poisson rate must be a positive finite number of requests per second, got -1"},
		{servebench.Constant(0), "run: Arrival: constant rate must be a positive finite number of requests per second, got 0"},
		{servebench.Gamma(math.Inf(1), 2, 1), "run: Arrival: gamma rate must be a positive finite number of requests per second, got +Inf"},
		{servebench.Gamma(10, 0, 1), "run: Arrival: gamma burstiness must be a positive finite shape k, got 0"},
	} {
		dir := t.TempDir()
		_, err := servebench.Run(context.Background(), servebench.RunConfig{
			Workload: workloadOf(t, `{"id":"a","prompt":"x","max_tokens":2}`),
			Arrival:  tc.arrival, Count: 3, Warmup: 1,
			Client:    servebench.NewClient(engine.URL, "m"),
			OutputDir: dir,
		})
		if err == nil || err.Error() != tc.want {
			t.Errorf("%+v: error %v, want %s", tc.arrival.Spec(), err, tc.want)
		}
		if entries, _ := os.ReadDir(dir); len(entries) > 0 {
			t.Errorf("%+v: the run directory holds %d entries, want none", tc.arrival.Spec(), len(entries))
		}
	}
	if n := requests.Load(); n > 0 {
		t.Errorf("the engine got %d requests, want none", n)
	}
}

// A good arrival is the process itself, its spec as declared.
func TestFacadeArrivalsDeclareTheirSpec(t *testing.T) {
	for _, tc := range []struct {
		arrival schedule.Arrival
		want    schedule.ArrivalSpec
	}{
		{servebench.Constant(5), schedule.ArrivalSpec{Process: schedule.ProcessConstant, RateRPS: 5}},
		{servebench.Poisson(20, 7), schedule.ArrivalSpec{Process: schedule.ProcessPoisson, RateRPS: 20, Seed: 7}},
		{servebench.Gamma(8, 0.5, 3), schedule.ArrivalSpec{Process: schedule.ProcessGamma, RateRPS: 8, Burstiness: 0.5, Seed: 3}},
	} {
		if got := tc.arrival.Spec(); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("spec %+v, want %+v", got, tc.want)
		}
		offsets, _, err := tc.arrival.Offsets(4, 0)
		if err != nil || len(offsets) != 4 {
			t.Errorf("%+v: %d offsets, error %v; want 4 and none", tc.want, len(offsets), err)
		}
	}
	if _, _, err := servebench.Poisson(-1, 1).Offsets(4, 0); err == nil {
		t.Error("a bad arrival realized offsets outside Run")
	}
}
