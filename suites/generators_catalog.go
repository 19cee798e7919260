package suites

import (
	"fmt"

	"github.com/servebench/servebench/fixtures/catalog"
	"github.com/servebench/servebench/servebench/schedule"
)

// The other fixtures generators, by the names the command line uses:
// shared-prefix, multi-turn and incident. Their count sets the
// generator's own count (conversations for multi-turn; shared-prefix takes
// groups and requests_per_group instead).
func init() {
	for _, kind := range []string{"shared-prefix", "multi-turn", "incident"} {
		RegisterGenerator(kind, func(spec GeneratorSpec) (*schedule.Workload, error) {
			if spec.Seed < 0 {
				return nil, fmt.Errorf("seed must be >= 0, got %d", spec.Seed)
			}
			g, err := catalog.Generator(kind, spec.Count, uint64(spec.Seed), spec.Params)
			if err != nil {
				return nil, err
			}
			return generate(spec, g)
		})
	}
}
