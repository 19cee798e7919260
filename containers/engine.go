// Package containers starts inference engines for a benchmark run and gives
// back a ready OpenAI-compatible endpoint: as containers through
// testcontainers-go (one module per engine in the sub-packages) or as local
// processes on loopback for machines without Docker.
package containers

import (
	"context"
	"io"
	"time"

	"github.com/servebench/servebench/servebench/report"
)

// Engine is a started, ready inference engine.
type Engine interface {
	// Kind names the engine ("vllm", "sglang", "tgi", "llamacpp",
	// "ollama", "simengine").
	Kind() string
	// BaseURL is the OpenAI-compatible root, e.g. "http://127.0.0.1:8000".
	BaseURL() string
	// Model is the served model name to put in requests.
	Model() string
	// MetricsURL is the Prometheus endpoint; empty when the engine has none.
	MetricsURL() string
	// Logs returns the engine's output so far.
	Logs(ctx context.Context) (io.ReadCloser, error)
	// ColdStart is the time from container or process start to readiness.
	ColdStart() time.Duration
	// Command is the resolved launch command (entrypoint and arguments).
	Command() []string
	// Identity describes the engine for the report's experiment record.
	Identity() Identity
	// Shutdown stops the engine and releases what it held: it stops and
	// removes a container, ends a local process and its children, closes
	// an in-process server. It is safe to call more than once. (The name is
	// not Stop because testcontainers.Container has Stop(ctx, *Duration),
	// which leaves a container in place.)
	Shutdown(ctx context.Context) error
}

// Identity is what a report records about the engine it measured: the
// experiment record's own engine entry, so the two cannot drift apart.
// Identity leaves ColdStartMS nil; EngineInfo fills it from ColdStart.
type Identity = report.EngineInfo
