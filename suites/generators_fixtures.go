package suites

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/servebench/servebench/fixtures"
	"github.com/servebench/servebench/servebench/schedule"
)

// The fixtures generators, available to every contract.
func init() {
	RegisterGenerator("fixed", func(spec GeneratorSpec) (*schedule.Workload, error) {
		var g fixtures.FixedShape
		if err := decodeParams(spec, &g); err != nil {
			return nil, err
		}
		return generate(spec, g)
	})
	RegisterGenerator("mixed", func(spec GeneratorSpec) (*schedule.Workload, error) {
		g := fixtures.DefaultMixed(0)
		if err := decodeParams(spec, &g); err != nil {
			return nil, err
		}
		return generate(spec, g)
	})
}

// decodeParams fills a fixtures generator's parameters from the spec: its
// fields by their JSON names, count as "requests" and the seed. An unknown
// field is an error.
func decodeParams(spec GeneratorSpec, into any) error {
	params := map[string]any{}
	for k, v := range spec.Params {
		params[k] = v
	}
	if spec.Count > 0 {
		params["requests"] = spec.Count
	}
	if spec.Seed < 0 {
		return fmt.Errorf("seed must be >= 0, got %d", spec.Seed)
	}
	params["seed"] = spec.Seed
	b, err := json.Marshal(params)
	if err != nil {
		return err
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	return dec.Decode(into)
}

// generate writes the generator's rows and parses them back as a workload,
// so the hash is that of the exact JSONL bytes.
func generate(spec GeneratorSpec, g fixtures.Generator) (*schedule.Workload, error) {
	var buf bytes.Buffer
	if _, err := fixtures.Generate(&buf, g); err != nil {
		return nil, err
	}
	return schedule.ParseWorkload(fmt.Sprintf("generator %s (seed %d)", spec.Kind, spec.Seed), buf.Bytes())
}
