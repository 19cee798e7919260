package suites

import (
	"bytes"
	"context"
	"io"
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
	return &inProcessEngine{srv: srv, spec: spec, logs: logs, coldStart: time.Since(began)}, nil
}

// inProcessEngine is a simulated engine serving from this process.
type inProcessEngine struct {
	srv       *simengine.Server
	spec      EngineSpec
	logs      *containers.LogRing
	coldStart time.Duration
}

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
