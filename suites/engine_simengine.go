package suites

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"time"

	"github.com/servebench/servebench/containers"
	"github.com/servebench/servebench/fixtures/simengine"
)

func init() { RegisterEngine("simengine", startSimengine) }

// simengineLogBytes bounds the access log an in-process engine keeps.
const simengineLogBytes = 1 << 20

// startSimengine starts the simulated engine in this process on a free
// loopback port, configured by the spec's model and args (the flags of
// cmd/simengine).
func startSimengine(ctx context.Context, spec EngineSpec) (containers.Engine, error) {
	var cfg simengine.Config
	if err := simengineConfig(&spec, &cfg); err != nil {
		return nil, err
	}
	logs := containers.NewLogRing(simengineLogBytes)
	cfg.AccessLog = logs
	began := time.Now()
	srv, err := simengine.Start(ctx, cfg)
	if err != nil {
		return nil, err
	}
	e := &inProcessEngine{srv: srv, spec: spec, logs: logs}
	if err := awaitHealthy(ctx, srv.BaseURL()+"/health"); err != nil {
		return e, fmt.Errorf("simengine: %w", err)
	}
	ready := time.Now()
	e.coldStart = ready.Sub(began)
	e.startTimes = containers.StartTimes{Requested: began, Started: began, Ready: ready}
	return e, nil
}

// awaitHealthy polls url every 10 ms until it answers 200 (the simulated
// engine answers 503 while it is loading) or ctx ends.
func awaitHealthy(ctx context.Context, url string) error {
	tick := time.NewTicker(10 * time.Millisecond)
	defer tick.Stop()
	for {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
		if err != nil {
			return err
		}
		if resp, err := http.DefaultClient.Do(req); err == nil {
			_ = resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return nil
			}
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("not ready before the start's deadline: %w", ctx.Err())
		case <-tick.C:
		}
	}
}

// inProcessEngine is a simulated engine serving from this process.
type inProcessEngine struct {
	srv       *simengine.Server
	spec      EngineSpec
	logs      *containers.LogRing
	coldStart time.Duration
	// startTimes are the start's instants (no pull: it runs in-process).
	startTimes containers.StartTimes
}

// StartTimes are the start's instants: asked for and started at once, and
// ready at the first 200 from /health.
func (e *inProcessEngine) StartTimes() containers.StartTimes { return e.startTimes }

func (e *inProcessEngine) Kind() string       { return "simengine" }
func (e *inProcessEngine) BaseURL() string    { return e.srv.BaseURL() }
func (e *inProcessEngine) Model() string      { return e.srv.Config().Model }
func (e *inProcessEngine) MetricsURL() string { return e.srv.BaseURL() + "/metrics" }

// Logs returns the engine's access log so far (one line per request).
func (e *inProcessEngine) Logs(context.Context) (io.ReadCloser, error) {
	return io.NopCloser(bytes.NewReader(e.logs.Bytes())), nil
}

func (e *inProcessEngine) ColdStart() time.Duration { return e.coldStart }

// Command is the equivalent cmd/simengine command line.
func (e *inProcessEngine) Command() []string {
	return append([]string{"simengine", "--model=" + e.Model()}, e.spec.Args...)
}

func (e *inProcessEngine) Identity() containers.Identity {
	return containers.Identity{Kind: "simengine", Model: e.Model(), Args: e.spec.Args, Version: "in-process"}
}

// Shutdown stops the server; requests still in flight are cut.
func (e *inProcessEngine) Shutdown(context.Context) error { return e.srv.Close() }
