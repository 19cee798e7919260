package suites

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"
	"sync"

	"github.com/servebench/servebench/containers"
)

// ErrEngineUnavailable marks an engine that cannot start on this machine
// (no Docker engine, no GPU runtime). A starter wraps it in its error, and
// the contract's specs are then skipped with the reason instead of failing,
// unless SERVEBENCH_REQUIRE_DOCKER=1 or SERVEBENCH_REQUIRE_GPU=1 asks for a
// failure.
var ErrEngineUnavailable = errors.New("engine unavailable on this machine")

// Engine is a started, ready engine: containers.Engine, so that a starter
// can return any module's container or a local process.
type Engine = containers.Engine

// EngineStarter starts the engine a contract's engine section declares and
// returns it ready to serve. ctx bounds the start (the contract's
// timeouts.startup when set).
type EngineStarter func(ctx context.Context, spec EngineSpec) (Engine, error)

var (
	startersMu sync.RWMutex
	starters   = map[string]EngineStarter{}
)

// RegisterEngine sets the starter for an engine kind, replacing the
// default, or adds a kind that contracts may then name (register it before
// loading them). The defaults are: simengine in-process (simengine.Start), and
// vllm, sglang, tgi and llamacpp through their testcontainers modules in
// package containers. Ollama has no default; register one to use it.
//
//	suites.RegisterEngine("vllm", func(ctx context.Context, spec suites.EngineSpec) (containers.Engine, error) {
//		return vllm.Run(ctx, spec.Image, vllm.WithModel(spec.Model), containers.WithGPUs(), containers.WithModelCache("/models"))
//	})
func RegisterEngine(kind string, start EngineStarter) {
	startersMu.Lock()
	defer startersMu.Unlock()
	starters[kind] = start
}

// StartEngine starts the engine of spec with the starter registered for its
// kind and returns it ready; terminate it when done. A starter's failure is
// returned wrapped (errors.Is(err, ErrEngineUnavailable) tells an engine
// that cannot run here), and an engine it returned with the error is
// terminated.
func StartEngine(ctx context.Context, spec EngineSpec) (Engine, error) {
	startersMu.RLock()
	start, ok := starters[spec.Kind]
	names := make([]string, 0, len(starters))
	for k := range starters {
		names = append(names, k)
	}
	startersMu.RUnlock()
	if !ok {
		sort.Strings(names)
		return nil, fmt.Errorf("no engine starter is registered for kind %q (registered: %s); register one with suites.RegisterEngine",
			spec.Kind, strings.Join(names, ", "))
	}
	eng, err := start(ctx, spec)
	if err != nil {
		if eng != nil {
			_ = eng.Shutdown(context.WithoutCancel(ctx))
		}
		return nil, fmt.Errorf("start %s engine: %w", spec.Kind, err)
	}
	return eng, nil
}

// registeredKind reports whether a starter is registered for kind.
func registeredKind(kind string) bool {
	startersMu.RLock()
	defer startersMu.RUnlock()
	_, ok := starters[kind]
	return ok
}

// key identifies an engine spec: contracts with equal specs share one
// engine.
func (e EngineSpec) key() string {
	b, _ := json.Marshal(e)
	return string(b)
}
