package suites

import (
	"errors"
	"fmt"

	"go.yaml.in/yaml/v3"

	"github.com/servebench/servebench/servebench/openai"
	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/servebench/score"
)

// endpointFit refuses, before any load, a contract whose engine does not
// serve its endpoint (with the engine's list), or whose workload rows or
// objectives do not fit the endpoint: a row without the endpoint's fields
// (named by file, line and field), an SLO objective on a metric the
// endpoint does not define (a TTFT bound on embeddings, named by its
// line), or a percentile objective on such a metric.
func (d *decoder) endpointFit(m *mapping, c *Contract) {
	api, ok := record.APIOf(c.Endpoint)
	if !ok {
		return // the endpoint itself was refused
	}
	if c.Engine != nil {
		if ok, served := servesAPI(c.Engine.Kind, c.Endpoint); !ok {
			node := m.get("endpoint")
			if node == nil {
				node = m.get("engine")
			}
			d.errorf(node, "endpoint", "the %s engine does not serve the %s API (it serves: %s)", c.Engine.Kind, c.Endpoint, served)
		}
	}
	if c.Workload != nil {
		if err := openai.CheckWorkload(c.Endpoint, c.Workload); err != nil {
			d.errorf(m.get("workload"), "workload", "%v", err)
		}
	}
	err := score.CheckObjectives(c.Endpoint, c.SLO)
	var u *score.UndefinedObjectiveError
	if errors.As(err, &u) {
		node := m.get("slo")
		if v := childValue(node, u.Objective); v != nil {
			node = v
		}
		d.errorf(node, "slo."+u.Objective, "%v", err)
	}
	d.percentilesFit(m.get("objectives"), "objectives", c.Objectives.Percentiles, api, c.Endpoint)
	for _, t := range c.Tiers {
		d.percentilesFit(childValue(m.get("tiers"), t.Name), "tiers."+t.Name, t.Objectives.Percentiles, api, c.Endpoint)
	}
}

// percentilesFit refuses the percentile objectives of the mapping node at
// path whose metric the endpoint e does not define.
func (d *decoder) percentilesFit(node *yaml.Node, path string, ps []PercentileObjective, api record.API, e record.Endpoint) {
	for i, p := range ps {
		if api.Defines(p.Metric) {
			continue
		}
		at := node
		if list := childValue(node, "percentiles"); list != nil && i < len(list.Content) {
			at = list.Content[i]
			if v := childValue(at, "metric"); v != nil {
				at = v
			}
		}
		d.errorf(at, fmt.Sprintf("%s.percentiles[%d].metric", path, i), "metric %s is not defined by the %s endpoint (it has no first token)", p.Metric, e)
	}
}

// childValue returns the value of key in mapping node n; nil when n is not
// a mapping or has no such key.
func childValue(n *yaml.Node, key string) *yaml.Node {
	if n == nil || n.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			return n.Content[i+1]
		}
	}
	return nil
}
