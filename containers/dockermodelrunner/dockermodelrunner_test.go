package dockermodelrunner

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/testcontainers/testcontainers-go"
	tcdmr "github.com/testcontainers/testcontainers-go/modules/dockermodelrunner"

	"github.com/servebench/servebench/containers"
	"github.com/servebench/servebench/servebench"
	"github.com/servebench/servebench/servebench/openai"
	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/servebench/schedule"
)

// marker is a customizer the wiring test can recognise.
type marker struct{ id int }

func (marker) Customize(*testcontainers.GenericContainerRequest) error { return nil }

func TestOptionsPassTheModelToTheOfficialModuleFirst(t *testing.T) {
	got, err := options("ai/smollm2:360M-Q4_K_M", []testcontainers.ContainerCustomizer{marker{1}, marker{2}})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 3 {
		t.Fatalf("%d options, want the model and the two given", len(got))
	}
	if _, ok := got[0].(tcdmr.Option); !ok {
		t.Errorf("first option is %T, want the module's WithModel", got[0])
	}
	if got[1] != (marker{1}) || got[2] != (marker{2}) {
		t.Errorf("the given options are not passed on in order: %v", got[1:])
	}
	if _, err := options("", nil); err == nil || !strings.Contains(err.Error(), "no model") {
		t.Errorf("no model: %v", err)
	}
	if _, err := Run(context.Background(), ""); err == nil {
		t.Error("Run without a model started something")
	}
}

// The end-to-end check runs only where Docker Desktop's model runner is;
// elsewhere it skips with the reason.
func TestRunServesAModelThroughDockerModelRunner(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	if reason := SkipReason(ctx); reason != "" {
		if containers.DockerRequired() && strings.Contains(reason, "Docker engine") {
			t.Fatal(reason)
		}
		t.Skip(reason)
	}
	c, err := Run(ctx, "ai/smollm2:360M-Q4_K_M")
	t.Cleanup(func() { _ = c.Shutdown(context.Background()) })
	if err != nil {
		t.Fatal(err)
	}
	w, _ := schedule.ParseWorkload("w.jsonl", []byte(`{"id":"a","messages":[{"role":"user","content":"Say hi"}],"max_tokens":8}`))
	arrival, _ := schedule.NewArrival(schedule.ArrivalSpec{Process: "constant", RateRPS: 1, Seed: 1})
	res, err := servebench.Run(ctx, servebench.RunConfig{Workload: w, Arrival: arrival, Count: 2, OutputDir: t.TempDir(),
		Client: &openai.Client{BaseURL: c.BaseURL(), Model: c.Model(), Endpoint: record.EndpointChat,
			TotalTimeout: time.Minute}})
	if err != nil {
		t.Fatal(err)
	}
	if res.Report.ProtocolSuccesses != 2 {
		t.Errorf("successes %d of 2: %v", res.Report.ProtocolSuccesses, res.Report.StatusCounts)
	}
}

func TestSkipReasonOnThisHost(t *testing.T) {
	reason := SkipReason(context.Background())
	if reason == "" {
		t.Skip("this host is Docker Desktop: nothing to skip")
	}
	if !strings.Contains(reason, "Docker") {
		t.Errorf("reason %q does not say what is missing", reason)
	}
}
