package suites

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
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

// acquireTarget returns where the contract's requests go: its base URL, the
// engine SharedEngine started for it, or an engine started now and stopped
// (its logs kept beside the run directories) when the contract's container
// ends. It must run in a setup node; an unavailable engine skips the specs.
func acquireTarget(ctx context.Context, c *Contract) Target {
	ginkgo.GinkgoHelper()
	if c.Engine == nil {
		return Target{BaseURL: c.BaseURL, Model: c.Model}
	}
	if s, ok := sharedEngineFor(c.Engine.key()); ok {
		switch {
		case s.Unavailable != "":
			skipOrFail(c, s.Unavailable)
		case s.Error != "":
			ginkgo.Fail(s.Error)
		}
		return s.Target
	}
	startCtx, cancel := context.WithTimeout(ctx, c.startupBudget())
	defer cancel()
	eng, err := StartEngine(startCtx, *c.Engine)
	if errors.Is(err, ErrEngineUnavailable) {
		skipOrFail(c, err.Error())
	}
	if err != nil {
		ginkgo.Fail(fmt.Sprintf("contract %s: %v", c.Name, err))
	}
	logPath := filepath.Join(c.ArtifactsRoot(), dirName(c.Name), "engine-"+c.Engine.Kind+".log")
	ginkgo.DeferCleanup(func(ctx ginkgo.SpecContext) error {
		saveEngineLogs(ctx, eng, logPath)
		return eng.Shutdown(ctx)
	}, ginkgo.NodeTimeout(2*time.Minute))
	return targetOf(eng)
}

// skipOrFail skips the contract's specs because its engine cannot run here,
// or fails them when the environment requires what was missing.
func skipOrFail(c *Contract, reason string) {
	ginkgo.GinkgoHelper()
	if engineRequired(c.Engine) {
		ginkgo.Fail(fmt.Sprintf("contract %s: %s", c.Name, reason))
	}
	ginkgo.Skip(fmt.Sprintf("contract %s: %s", c.Name, reason))
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
// in the spec's output, never fatal.
func saveEngineLogs(ctx context.Context, eng containers.Engine, path string) {
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
		ginkgo.GinkgoWriter.Printf("servebench: could not keep the %s engine's logs: %v\n", eng.Kind(), err)
		return
	}
	ginkgo.GinkgoWriter.Printf("servebench: %s engine logs kept in %s\n", eng.Kind(), path)
}

// shortHash is a short stable name for an engine spec's key.
func shortHash(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:4])
}
