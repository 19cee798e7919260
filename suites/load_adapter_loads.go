package suites

import (
	"github.com/servebench/servebench/servebench/openai"
	"github.com/servebench/servebench/servebench/schedule"
	"go.yaml.in/yaml/v3"
)

// adapterLoads reads the LoRA adapters to load before the run,
// `load_adapters: {NAME: PATH, ...}` in the order written, and
// `adapter_load_timeout`, the deadline of each load call.
func (d *decoder) adapterLoads(m *mapping, c *Contract) {
	c.LoRA.LoadTimeout = d.duration(m, "adapter_load_timeout")
	n := m.get("load_adapters")
	if n == nil {
		if t := m.get("adapter_load_timeout"); t != nil {
			d.errorf(t, "adapter_load_timeout", "bounds the loads of load_adapters, and there are none")
		}
		return
	}
	if n.Kind != yaml.MappingNode || len(n.Content) == 0 {
		d.errorf(n, "load_adapters", "want a mapping of adapter names to the paths the engine loads them from, got %s", describe(n))
		return
	}
	var loads []openai.AdapterLoad
	seen := map[string]bool{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := resolve(n.Content[i]), resolve(n.Content[i+1])
		field := join("load_adapters", k.Value)
		switch {
		case k.Kind != yaml.ScalarNode || k.Value == "":
			d.errorf(k, "load_adapters", "want an adapter name, got %s", describe(k))
		case seen[k.Value]:
			d.errorf(k, field, "given twice")
		case k.Value == schedule.BaseAdapter:
			d.errorf(k, field, "%q is the base model, which needs no loading", k.Value)
		case v.Kind != yaml.ScalarNode || v.ShortTag() != "!!str" || v.Value == "":
			d.errorf(v, field, "want the path the engine loads the adapter from, got %s", describe(v))
		default:
			loads = append(loads, openai.AdapterLoad{Name: k.Value, Path: v.Value})
		}
		seen[k.Value] = true
	}
	if len(loads) == len(n.Content)/2 {
		c.LoRA.Load, c.loaded = loads, &loadedAdapters{}
	}
}
