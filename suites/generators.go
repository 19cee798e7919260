package suites

import (
	"sort"
	"strings"
	"sync"

	"github.com/servebench/servebench/servebench/schedule"
)

// GeneratorSpec is a contract's workload.generator section: the generator's
// kind, the common count and seed, and every other field as decoded YAML.
type GeneratorSpec struct {
	// Kind names the registered generator.
	Kind string
	// Count is the number of rows; zero leaves the generator's default.
	Count int
	// Seed fixes the generated rows.
	Seed int64
	// Params holds the section's other fields.
	Params map[string]any
}

// GeneratorFunc makes a frozen workload from a generator section. It must
// be deterministic: the same spec gives the same bytes, and so the same
// workload hash.
type GeneratorFunc func(spec GeneratorSpec) (*schedule.Workload, error)

var (
	generatorsMu sync.RWMutex
	generators   = map[string]GeneratorFunc{}
)

// RegisterGenerator makes a workload generator available to contracts as
// workload.generator.kind. Register before loading the contracts, for
// instance in an init function or in TestXxx before Load; a later
// registration of the same kind replaces the earlier one. The fixtures
// generators "fixed", "mixed", "shared-prefix", "multi-turn" and
// "incident" are registered by default.
//
//	suites.RegisterGenerator("my-trace", func(spec suites.GeneratorSpec) (*schedule.Workload, error) {
//		return schedule.ParseWorkload("my-trace", buildRows(spec.Count, spec.Seed))
//	})
func RegisterGenerator(kind string, fn GeneratorFunc) {
	generatorsMu.Lock()
	defer generatorsMu.Unlock()
	generators[kind] = fn
}

// lookupGenerator returns the generator registered for kind.
func lookupGenerator(kind string) (GeneratorFunc, bool) {
	generatorsMu.RLock()
	defer generatorsMu.RUnlock()
	fn, ok := generators[kind]
	return fn, ok
}

// generatorNames lists the registered generators.
func generatorNames() string {
	generatorsMu.RLock()
	defer generatorsMu.RUnlock()
	names := make([]string, 0, len(generators))
	for k := range generators {
		names = append(names, k)
	}
	sort.Strings(names)
	if len(names) == 0 {
		return "none"
	}
	return strings.Join(names, ", ")
}
