package suites

import (
	"fmt"

	"github.com/onsi/ginkgo/v2/types"
	"go.yaml.in/yaml/v3"
)

// labels reads and validates the user's labels with Ginkgo's own rules, so
// a bad label is reported with its line instead of stopping the suite at
// tree construction.
func (d *decoder) labels(m *mapping) []string {
	n := m.get("labels")
	if n == nil {
		return nil
	}
	if n.Kind != yaml.SequenceNode {
		d.errorf(n, "labels", "want a list of labels, got %s", describe(n))
		return nil
	}
	var out []string
	for i, e := range n.Content {
		e = resolve(e)
		field := fmt.Sprintf("labels[%d]", i)
		if e.Kind != yaml.ScalarNode {
			d.errorf(e, field, "want a label, got %s", describe(e))
			continue
		}
		clean, err := types.ValidateAndCleanupLabel(e.Value, types.CodeLocation{FileName: d.file, LineNumber: e.Line})
		if err != nil {
			d.errorf(e, field, "%q is not a valid Ginkgo label: it must not be empty or start with ':', and must not contain & | ! , ( ) /", e.Value)
			continue
		}
		out = append(out, clean)
	}
	return out
}

// AllLabels returns the contract's Ginkgo labels: the user's, then
// engine:<kind> (engine:external for a base URL), gpu when the engine
// requests GPUs or an energy objective is declared, and sweep when several rates are tested. Filter with
// them, e.g. ginkgo --label-filter='!gpu' or -ginkgo.label-filter='engine:simengine'.
func (c *Contract) AllLabels() []string {
	out := append([]string(nil), c.Labels...)
	if c.Engine != nil {
		out = append(out, "engine:"+c.Engine.Kind)
	} else {
		out = append(out, "engine:external")
	}
	if c.SamplesGPUs() {
		out = append(out, "gpu")
	}
	if c.Arrival.Sweep() {
		out = append(out, "sweep")
	}
	return out
}
