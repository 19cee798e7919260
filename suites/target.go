package suites

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/onsi/ginkgo/v2"

	"github.com/servebench/servebench/containers"
	"github.com/servebench/servebench/internal/safefile"
)

// targetOf describes a started engine as a Target.
func targetOf(eng containers.Engine) Target {
	return Target{BaseURL: eng.BaseURL(), Model: eng.Model(), MetricsURL: eng.MetricsURL(), Engine: containers.EngineInfo(eng)}
}

// startupBudget bounds an engine's start: timeouts.startup, else a minute
// for the simulated engine and the containers' model-loading default for
// the others.
func (c *Contract) startupBudget() time.Duration {
	switch {
	case c.Timeouts.Startup > 0:
		return c.Timeouts.Startup
	case c.Engine == nil:
		return time.Minute
	case c.Engine.Kind == "simengine":
		return containers.DefaultStartupTimeout
	}
	return containers.DefaultModelStartupTimeout
}

// startTarget returns where the contract's requests go: its base URL, the
// engine SharedEngine started for it, or an engine started now, with the
// function that stops it (and keeps its logs beside the run directories;
// nil when nothing was started). An engine that cannot run here is an
// error that wraps ErrEngineUnavailable; log receives progress lines.
func (c *Contract) startTarget(ctx context.Context, log io.Writer) (Target, func(context.Context) error, error) {
	if c.Engine == nil {
		return Target{BaseURL: c.BaseURL, Model: c.Model}, nil, nil
	}
	if s, ok := sharedEngineFor(c.Engine.key()); ok {
		switch {
		case s.Unavailable != "":
			return Target{}, nil, unavailableError(s.Unavailable)
		case s.Error != "":
			return Target{}, nil, errors.New(s.Error)
		}
		return s.Target, nil, nil
	}
	eng, starts, err := c.startRepeatedly(ctx)
	if errors.Is(err, ErrEngineUnavailable) {
		return Target{}, nil, err
	}
	if err != nil {
		return Target{}, nil, fmt.Errorf("contract %s: %v", c.Name, err)
	}
	logPath := filepath.Join(c.ArtifactsRoot(), dirName(c.Name), "engine-"+c.Engine.Kind+".log")
	stop := func(ctx context.Context) error {
		saveEngineLogs(ctx, log, eng, logPath)
		return eng.Shutdown(ctx)
	}
	t := targetOf(eng)
	t.Starts = starts
	return t, stop, nil
}

// unavailableError is the reason, shared between Ginkgo processes, that an
// engine cannot run here.
type unavailableError string

func (e unavailableError) Error() string { return string(e) }

// Is makes the reason an ErrEngineUnavailable.
func (e unavailableError) Is(target error) bool { return target == ErrEngineUnavailable }

// acquireTarget is startTarget in a Ginkgo setup node: the engine is
// stopped when the contract's container ends, and an unavailable engine
// skips the specs (see skipOrFail).
func acquireTarget(ctx context.Context, c *Contract) Target {
	ginkgo.GinkgoHelper()
	t, stop, err := c.startTarget(ctx, ginkgo.GinkgoWriter)
	if errors.Is(err, ErrEngineUnavailable) {
		skipOrFail(c, err.Error())
	}
	if err != nil {
		ginkgo.Fail(err.Error())
	}
	if stop != nil {
		ginkgo.DeferCleanup(func(ctx ginkgo.SpecContext) error { return stop(ctx) }, ginkgo.NodeTimeout(2*time.Minute))
	}
	return t
}

// skipOrFail skips the contract's specs because its engine cannot run here,
// or fails them when the environment requires what was missing.
func skipOrFail(c *Contract, reason string) {
	ginkgo.GinkgoHelper()
	msg, fail := c.unavailable(reason)
	if fail {
		ginkgo.Fail(msg)
	}
	ginkgo.Skip(msg)
}

// unavailable is the message for an engine that cannot run here, and
// whether the environment requires it (see engineRequired), which turns
// the skip into a failure.
func (c *Contract) unavailable(reason string) (msg string, fail bool) {
	return fmt.Sprintf("contract %s: %s", c.Name, reason), engineRequired(c.Engine)
}

// engineRequired reports whether an engine that cannot start here fails
// its contract instead of skipping it: a GPU engine when
// SERVEBENCH_REQUIRE_GPU=1 (a runner with GPUs), any other engine when
// SERVEBENCH_REQUIRE_DOCKER=1. A CI runner that requires Docker but has no
// GPU still skips the GPU contracts.
func engineRequired(e *EngineSpec) bool {
	if e != nil && e.GPUs != 0 {
		return containers.GPURequired()
	}
	return containers.DockerRequired()
}

// saveEngineLogs writes what the engine logged to path; a failure is noted
// in log, never fatal.
func saveEngineLogs(ctx context.Context, log io.Writer, eng containers.Engine, path string) {
	rc, err := eng.Logs(ctx)
	if err == nil {
		defer rc.Close()
		if err = os.MkdirAll(filepath.Dir(path), 0o755); err == nil {
			var f *os.File
			if f, err = safefile.Create(path); err == nil {
				_, err = f.ReadFrom(rc)
				if cerr := f.Close(); err == nil {
					err = cerr
				}
			}
		}
	}
	if err != nil {
		fmt.Fprintf(log, "servebench: could not keep the %s engine's logs: %v\n", eng.Kind(), err)
		return
	}
	fmt.Fprintf(log, "servebench: %s engine logs kept in %s\n", eng.Kind(), path)
}

// shortHash is a short stable name for an engine spec's key.
func shortHash(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:4])
}
