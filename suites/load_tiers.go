package suites

import (
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"
)

// TierNames are the tiers a contract may declare, lowest first: the
// objectives of the enforced tier and of those below it fail the suite,
// those above it are informational.
var TierNames = []string{"functional", "complete", "target"}

// Tier is one tier of objectives (`tiers.NAME`), with the keys of
// `objectives:`.
type Tier struct {
	// Name is functional, complete or target.
	Name string
	// Objectives are the tier's objectives; valid_load is false unless the
	// tier declares it.
	Objectives Objectives
	// Informational is true for a tier above the enforced one.
	Informational bool
}

// The values of `unjudged:` and of --unjudged.
const (
	// UnjudgedSkip reports an objective without its data as unjudged: a
	// skipped spec, neither a pass nor a failure (the default).
	UnjudgedSkip = "skip"
	// UnjudgedFail makes such an objective a failure.
	UnjudgedFail = "fail"
)

// ParseUnjudged reads a value of `unjudged:` or --unjudged: skip or fail;
// fail reports whether it is fail.
func ParseUnjudged(s string) (fail bool, ok bool) {
	switch s {
	case UnjudgedSkip:
		return false, true
	case UnjudgedFail:
		return true, true
	}
	return false, false
}

// tiers reads `tiers:`, `enforce:` and `unjudged:`. An unknown tier, an
// enforce naming no declared tier, and an enforce without tiers are
// errors; without enforce every declared tier is enforced.
func (d *decoder) tiers(m *mapping, c *Contract) {
	if u := d.str(m, "unjudged"); u != "" {
		fail, ok := ParseUnjudged(u)
		if !ok {
			d.errorf(m.get("unjudged"), "unjudged", "want skip (an objective without its data is reported unjudged, neither pass nor fail) or fail, got %q", u)
		}
		c.UnjudgedFail = fail
	}
	n := m.get("tiers")
	enforce := d.str(m, "enforce")
	if n == nil {
		if enforce != "" {
			d.errorf(m.get("enforce"), "enforce", "names tier %q, but the contract declares no tiers: (declare tiers: {%s} beside objectives:)", enforce, strings.Join(TierNames, ", "))
		}
		return
	}
	if n.Kind == yaml.MappingNode {
		for i := 0; i+1 < len(n.Content); i += 2 {
			if k := resolve(n.Content[i]); k.Kind == yaml.ScalarNode && !slices.Contains(TierNames, k.Value) {
				d.errorf(k, "tiers."+k.Value, "unknown tier (the tiers are %s, lowest first)", strings.Join(TierNames, ", "))
			}
		}
	}
	tm := d.mapping(n, "tiers", append(append([]string(nil), TierNames...), tierKeys(n)...)...)
	if tm == nil {
		return
	}
	for _, name := range TierNames {
		if !tm.has(name) {
			continue
		}
		d.objAt = "tiers." + name
		if o, ok := d.objectivesAt(tm.get(name), c, false); ok {
			c.Tiers = append(c.Tiers, Tier{Name: name, Objectives: o})
		}
	}
	d.objAt = "objectives"
	if len(c.Tiers) == 0 {
		d.errorf(n, "tiers", "declare at least one of the tiers %s", strings.Join(TierNames, ", "))
		return
	}
	c.Enforce = c.Tiers[len(c.Tiers)-1].Name
	if enforce == "" {
		return
	}
	at := slices.IndexFunc(c.Tiers, func(t Tier) bool { return t.Name == enforce })
	if at < 0 {
		declared := make([]string, len(c.Tiers))
		for i, t := range c.Tiers {
			declared[i] = t.Name
		}
		d.errorf(m.get("enforce"), "enforce", "names no declared tier: got %q, the tiers declared are %s", enforce, strings.Join(declared, ", "))
		return
	}
	c.Enforce = enforce
	for i := at + 1; i < len(c.Tiers); i++ {
		c.Tiers[i].Informational = true
	}
}

// tierKeys are the keys of n, a mapping, so that an unknown tier, already
// reported, is not reported again as an unknown field.
func tierKeys(n *yaml.Node) []string {
	var out []string
	if n.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		out = append(out, resolve(n.Content[i]).Value)
	}
	return out
}
