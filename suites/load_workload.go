package suites

import (
	"path/filepath"

	"github.com/servebench/servebench/servebench/schedule"

	"go.yaml.in/yaml/v3"
)

// workload reads the workload section: a JSONL file (relative to the
// contract's directory) or a generator, exactly one of the two.
func (d *decoder) workload(m *mapping, c *Contract, dir string) {
	if !d.required(m, "workload") {
		return
	}
	w := d.mapping(m.get("workload"), "workload", "file", "generator", "import")
	if w == nil {
		return
	}
	switch {
	case w.has("file") && w.has("generator"):
		d.errorf(w.get("generator"), "workload.generator", "give either file or generator, not both")
	case w.has("import") && (w.has("file") || w.has("generator")):
		d.errorf(w.get("import"), "workload.import", "give one of file, generator or import")
	case w.has("import"):
		d.importTrace(w.get("import"), c, dir)
	case w.has("file"):
		file := d.str(w, "file")
		if file == "" {
			return
		}
		if !filepath.IsAbs(file) {
			file = filepath.Join(dir, file)
		}
		wl, err := schedule.LoadWorkload(file)
		if err != nil {
			d.errorf(w.get("file"), "workload.file", "%v", err)
			return
		}
		c.Workload, c.WorkloadSource = wl, file
	case w.has("generator"):
		d.generator(w.get("generator"), c)
	default:
		d.errorf(w.node, "workload", "give a file, a generator or an import")
	}
}

// generator runs the registered generator named by the section's kind.
func (d *decoder) generator(n *yaml.Node, c *Contract) {
	if n.Kind != yaml.MappingNode {
		d.errorf(n, "workload.generator", "want a mapping with a kind, got %s", describe(n))
		return
	}
	spec := GeneratorSpec{Params: map[string]any{}}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := resolve(n.Content[i]), n.Content[i+1]
		field := join("workload.generator", k.Value)
		switch k.Value {
		case "kind":
			if err := v.Decode(&spec.Kind); err != nil || spec.Kind == "" {
				d.errorf(v, field, "want the generator's name, got %s", describe(resolve(v)))
			}
		case "count":
			if err := v.Decode(&spec.Count); err != nil || spec.Count < 1 {
				d.errorf(v, field, "want a number of rows of at least 1, got %s", describe(resolve(v)))
			}
		case "seed":
			if err := v.Decode(&spec.Seed); err != nil {
				d.errorf(v, field, "want an integer seed, got %s", describe(resolve(v)))
			}
		default:
			var val any
			if err := v.Decode(&val); err != nil {
				d.errorf(v, field, "%v", err)
				continue
			}
			spec.Params[k.Value] = val
		}
	}
	if spec.Kind == "" {
		d.errorf(n, "workload.generator.kind", "required")
		return
	}
	gen, ok := lookupGenerator(spec.Kind)
	if !ok {
		d.errorf(n, "workload.generator.kind", "no generator named %q is registered (registered: %s); register one with suites.RegisterGenerator",
			spec.Kind, generatorNames())
		return
	}
	wl, err := gen(spec)
	if err != nil {
		d.errorf(n, "workload.generator", "%s: %v", spec.Kind, err)
		return
	}
	c.Workload, c.WorkloadSource = wl, "generator "+spec.Kind
}
