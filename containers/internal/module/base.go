package module

import (
	"context"
	"fmt"
	"io"
	"os"
	"sync/atomic"
	"time"

	"github.com/servebench/servebench/containers"
	"github.com/servebench/servebench/internal/redact"

	cerrdefs "github.com/containerd/errdefs"
	"github.com/testcontainers/testcontainers-go"
)

// Base is a started engine container. It embeds the testcontainers
// Container (so every testcontainers method is at hand) and implements
// Engine. Engine modules embed *Base in their own Container type.
//
// Base keeps testcontainers' Terminate(ctx, ...TerminateOption), so a module
// container is a testcontainers.Container (testcontainers.CleanupContainer
// and TerminateContainer accept it); Shutdown is Engine's way to stop it.
type Base struct {
	testcontainers.Container

	kind        string
	image       string
	imageID     string
	imageDigest string
	model       string
	version     string
	args        []string
	command     []string
	baseURL     string
	metricsURL  string
	apiKey      string
	coldStart   time.Duration
	startTimes  containers.StartTimes
	logs        *containers.LogRing
	terminated  atomic.Bool
}

var (
	_ containers.Engine        = (*Base)(nil)
	_ testcontainers.Container = (*Base)(nil)
)

// Kind names the engine.
func (b *Base) Kind() string { return b.kind }

// BaseURL is the OpenAI-compatible root, e.g. "http://127.0.0.1:32768".
func (b *Base) BaseURL() string { return b.baseURL }

// Model is the served model name to put in requests.
func (b *Base) Model() string { return b.model }

// MetricsURL is the engine's Prometheus endpoint; empty when it has none.
func (b *Base) MetricsURL() string { return b.metricsURL }

// ColdStart is the time from the container start request to the first 200
// from the engine's health endpoint (polled every 100 ms).
func (b *Base) ColdStart() time.Duration { return b.coldStart }

// StartTimes are the start's instants: asked for, the image pull (up to
// the container's creation), the container's start and its readiness.
func (b *Base) StartTimes() containers.StartTimes { return b.startTimes }

// Command is the process the container runs (entrypoint and arguments, as
// Docker resolved them), with the API key redacted.
func (b *Base) Command() []string { return append([]string(nil), b.command...) }

// APIKey is the key clients must send as "Authorization: Bearer <key>";
// empty when the engine requires none.
func (b *Base) APIKey() string { return b.apiKey }

// ImageDigest is the image's repository digest ("name@sha256:…") when the
// image came from a registry; empty for a locally built image.
func (b *Base) ImageDigest() string { return b.imageDigest }

// Identity describes the engine for a report's experiment record.
func (b *Base) Identity() containers.Identity {
	return containers.Identity{
		Kind:    b.kind,
		Image:   b.image,
		ImageID: b.imageID,
		Model:   b.model,
		Version: b.version,
		Args:    append([]string(nil), b.args...),
	}
}

// LogTail returns the most recent engine output kept in memory (bounded by
// WithLogBuffer), for failure reports.
func (b *Base) LogTail() string {
	if b == nil || b.logs == nil {
		return ""
	}
	return b.logs.String()
}

// SaveLogs writes the engine's whole output so far to path, as an artifact
// of the run. The API key, if any, is redacted.
func (b *Base) SaveLogs(ctx context.Context, path string) error {
	rc, err := b.Logs(ctx)
	if err != nil {
		return fmt.Errorf("read %s logs: %w", b.kind, err)
	}
	defer rc.Close()
	data, err := io.ReadAll(rc)
	if err != nil {
		return fmt.Errorf("read %s logs: %w", b.kind, err)
	}
	if b.apiKey != "" {
		data = []byte(redact.New(b.apiKey).Redact(string(data)))
	}
	if err := os.WriteFile(path, data, 0o644); err != nil {
		return fmt.Errorf("save %s logs: %w", b.kind, err)
	}
	return nil
}

// Shutdown stops and removes the container. It is safe on a nil Base, on a Base
// whose container never started, when called again after it succeeded, and
// after testcontainers' Terminate removed the container.
func (b *Base) Shutdown(ctx context.Context) error {
	if b == nil || b.Container == nil || b.terminated.Load() {
		return nil
	}
	if err := b.Container.Terminate(ctx); err != nil && !cerrdefs.IsNotFound(err) {
		return fmt.Errorf("shut down %s: %w", b.kind, err)
	}
	b.terminated.Store(true)
	return nil
}
