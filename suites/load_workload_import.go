package suites

import (
	"fmt"
	"path/filepath"

	"github.com/servebench/servebench/servebench/schedule"

	"go.yaml.in/yaml/v3"

	"github.com/servebench/servebench/fixtures/catalog"
)

// importTrace reads workload.import: a trace file in a named format (see
// catalog.Importers) turned into the workload by its importer, with the
// section's other fields as the importer's options. The file is relative
// to the contract.
func (d *decoder) importTrace(n *yaml.Node, c *Contract, dir string) {
	n = resolve(n)
	if n.Kind != yaml.MappingNode {
		d.errorf(n, "workload.import", "want a mapping with format and file, got %s", describe(n))
		return
	}
	var format, file string
	params := map[string]any{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := resolve(n.Content[i]), n.Content[i+1]
		field := join("workload.import", k.Value)
		switch k.Value {
		case "format":
			if err := v.Decode(&format); err != nil || format == "" {
				d.errorf(v, field, "want one of %v, got %s", catalog.Importers(), describe(resolve(v)))
			}
		case "file":
			if err := v.Decode(&file); err != nil || file == "" {
				d.errorf(v, field, "want the trace's path, got %s", describe(resolve(v)))
			}
		default:
			var val any
			if err := v.Decode(&val); err != nil {
				d.errorf(v, field, "%v", err)
				continue
			}
			params[k.Value] = val
		}
	}
	if format == "" || file == "" {
		d.errorf(n, "workload.import", "give format (%v) and file", catalog.Importers())
		return
	}
	if !filepath.IsAbs(file) {
		file = filepath.Join(dir, file)
	}
	rows, _, err := catalog.Import(format, file, params)
	if err != nil {
		d.errorf(n, "workload.import", "%v", err)
		return
	}
	wl, err := schedule.ParseWorkload(fmt.Sprintf("%s import of %s", format, file), rows)
	if err != nil {
		d.errorf(n, "workload.import", "%v", err)
		return
	}
	c.Workload, c.WorkloadSource = wl, fmt.Sprintf("%s import of %s", format, file)
}
