package suites

import (
	"github.com/servebench/servebench/servebench/openai"
	"github.com/servebench/servebench/servebench/schedule"
	"go.yaml.in/yaml/v3"
)

// adapters reads the LoRA adapter mix, `adapters: {NAME: WEIGHT, ...}`:
// each weight a positive number, normalised to sum to 1; "base" names the
// base model. The engine kind chooses how an adapter is named in a
// request's model (SGLang: BASE:ADAPTER; the others: its own name).
func (d *decoder) adapters(m *mapping, c *Contract) {
	if c.Engine != nil && c.Engine.Kind == "sglang" {
		c.AdapterForm = openai.AdapterBaseColon
	}
	n := m.get("adapters")
	if n == nil {
		if a := m.get("adapter_assignment"); a != nil {
			d.errorf(a, "adapter_assignment", "assigns the adapters of an adapters: mix, and there is none")
		}
		return
	}
	if n.Kind != yaml.MappingNode || len(n.Content) == 0 {
		d.errorf(n, "adapters", "want a mapping of adapter names to positive weights, got %s", describe(n))
		return
	}
	weights := map[string]float64{}
	ok := true
	for i := 0; i+1 < len(n.Content); i += 2 {
		k := resolve(n.Content[i])
		field := join("adapters", k.Value)
		if _, dup := weights[k.Value]; dup {
			d.errorf(k, field, "given twice")
			ok = false
			continue
		}
		if k.Kind != yaml.ScalarNode || k.Value == "" {
			d.errorf(k, "adapters", "want an adapter name, got %s", describe(k))
			ok = false
			continue
		}
		w, good := d.number(n.Content[i+1], field)
		if good && w <= 0 {
			d.errorf(n.Content[i+1], field, "want a weight greater than 0, got %s", resolve(n.Content[i+1]).Value)
			good = false
		}
		ok = ok && good
		weights[k.Value] = w
	}
	if !ok {
		return
	}
	mix, err := schedule.NewAdapterMix(weights)
	if err != nil {
		d.errorf(n, "adapters", "%v", err)
		return
	}
	if a := m.get("adapter_assignment"); a != nil {
		if err := mix.SetAssignment(d.str(m, "adapter_assignment")); err != nil {
			d.errorf(a, "adapter_assignment", "%v", err)
			return
		}
	}
	c.LoRA.Mix = mix
}
