package suites

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"sync"
	"time"

	"github.com/onsi/ginkgo/v2"
	"github.com/onsi/ginkgo/v2/types"
)

// sharedEngine is what process #1 tells every process about one engine.
type sharedEngine struct {
	Target Target `json:"target"`
	// Unavailable says why the engine cannot run on this machine.
	Unavailable string `json:"unavailable,omitempty"`
	// Error says why the engine failed to start.
	Error string `json:"error,omitempty"`
}

var (
	sharedMu sync.RWMutex
	shared   map[string]sharedEngine
)

// sharedEngineFor returns the shared engine for an engine spec's key.
func sharedEngineFor(key string) (sharedEngine, bool) {
	sharedMu.RLock()
	defer sharedMu.RUnlock()
	s, ok := shared[key]
	return s, ok
}

// SharedEngine starts one engine for each distinct engine section among
// the contracts, once for all parallel Ginkgo processes: process #1 starts
// them in SynchronizedBeforeSuite and every process reads their endpoints;
// they are stopped with DeferCleanup after every process has finished, and
// their logs are kept in <artifacts>/engines/. Contracts whose labels the
// label filter excludes start nothing. An engine that cannot run here
// (ErrEngineUnavailable) skips its contracts' specs, and one that fails to
// start fails them, without touching the other contracts.
//
// Call it at the top level of the suite, before RunSpecs, with the
// contracts given to Register. Without it, each contract starts its own
// engine when its specs begin and stops it when they end.
//
//	func TestContracts(t *testing.T) {
//		RegisterFailHandler(Fail)
//		contracts, err := suites.LoadDir("contracts")
//		if err != nil {
//			t.Fatal(err)
//		}
//		suites.SharedEngine(contracts...)
//		Describe("SLO contracts", func() { suites.Register(contracts...) })
//		RunSpecs(t, "SLO contracts")
//	}
func SharedEngine(contracts ...*Contract) bool {
	return ginkgo.SynchronizedBeforeSuite(func(ctx ginkgo.SpecContext) []byte {
		started := startShared(ctx, selected(contracts))
		b, err := json.Marshal(started)
		if err != nil {
			ginkgo.Fail(fmt.Sprintf("share engine endpoints: %v", err))
		}
		return b
	}, func(b []byte) {
		var m map[string]sharedEngine
		if err := json.Unmarshal(b, &m); err != nil {
			ginkgo.Fail(fmt.Sprintf("read shared engine endpoints: %v", err))
		}
		sharedMu.Lock()
		shared = m
		sharedMu.Unlock()
	})
}

// selected keeps the contracts whose labels pass the suite's label filter.
func selected(contracts []*Contract) []*Contract {
	filter, err := types.ParseLabelFilter(ginkgo.GinkgoLabelFilter())
	if err != nil {
		return contracts
	}
	var out []*Contract
	for _, c := range contracts {
		if filter(c.AllLabels()) {
			out = append(out, c)
		}
	}
	return out
}

// startShared starts each distinct engine once and registers its cleanup.
func startShared(ctx context.Context, contracts []*Contract) map[string]sharedEngine {
	out := map[string]sharedEngine{}
	for _, c := range contracts {
		if c.Engine == nil {
			continue
		}
		key := c.Engine.key()
		if _, done := out[key]; done {
			continue
		}
		eng, starts, err := c.startRepeatedly(ctx)
		switch {
		case errors.Is(err, ErrEngineUnavailable):
			out[key] = sharedEngine{Unavailable: err.Error()}
			continue
		case err != nil:
			out[key] = sharedEngine{Error: err.Error()}
			continue
		}
		logPath := filepath.Join(c.ArtifactsRoot(), "engines", c.Engine.Kind+"-"+shortHash(key)+".log")
		ginkgo.DeferCleanup(func(ctx ginkgo.SpecContext) error {
			saveEngineLogs(ctx, ginkgo.GinkgoWriter, eng, logPath)
			return eng.Shutdown(ctx)
		}, ginkgo.NodeTimeout(2*time.Minute))
		t := targetOf(eng)
		t.Starts = starts
		out[key] = sharedEngine{Target: t}
	}
	return out
}
