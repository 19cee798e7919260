package servebench_test

import (
	"context"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/servebench/servebench/fixtures/simengine"
	"github.com/servebench/servebench/servebench"
	"github.com/servebench/servebench/servebench/openai"
	"github.com/servebench/servebench/servebench/record"
)

// wrappedSender is a Sender that wraps a real Client and counts what it
// sends: the shape of a tracing or header-adding wrapper.
type wrappedSender struct {
	inner *openai.Client
	calls atomic.Int64
}

func (s *wrappedSender) Do(ctx context.Context, start time.Time, req *record.Request, id string, out *record.Outcome) {
	s.calls.Add(1)
	s.inner.Do(ctx, start, req, id, out)
}

func TestRunSendsThroughTheSenderItIsGiven(t *testing.T) {
	srv := simengine.StartTest(t, func(c *simengine.Config) { c.TimeScale = 0.1 })
	sender := &wrappedSender{inner: clientFor(srv)}
	res, err := servebench.Run(context.Background(), servebench.RunConfig{
		Workload: workloadOf(t, `{"id":"a","prompt":"check the pager","max_tokens":3,"ignore_eos":true}`),
		Arrival:  constant(t, 50), Count: 4, Warmup: 2, Sender: sender, OutputDir: t.TempDir(),
	})
	if err != nil {
		t.Fatal(err)
	}
	// 2 warmup requests and 4 measured ones, all through the sender.
	if got := sender.calls.Load(); got != 6 {
		t.Fatalf("sender called %d times, want 6", got)
	}
	r := res.Report
	if r.Offered != 4 || r.ProtocolSuccesses != 4 {
		t.Fatalf("offered %d, successes %d; want 4 and 4", r.Offered, r.ProtocolSuccesses)
	}
	// Without a Client the experiment record does not invent an endpoint.
	if x := r.Experiment; x == nil || x.BaseURL != "" || x.Model != "" {
		t.Fatalf("experiment %+v; want no client description", x)
	}
}

func TestRunNeedsAClientOrASender(t *testing.T) {
	_, err := servebench.Run(context.Background(), servebench.RunConfig{
		Workload: workloadOf(t, `{"id":"a","prompt":"x","max_tokens":3}`), Arrival: constant(t, 50), Count: 1,
	})
	if err == nil || !strings.Contains(err.Error(), "run: a client or a sender is required") {
		t.Fatalf("error %v", err)
	}
}
