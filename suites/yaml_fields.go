package suites

import (
	"errors"
	"fmt"
	"math"
	"sort"
	"strings"
	"time"

	"github.com/servebench/servebench/servebench/schedule"

	"go.yaml.in/yaml/v3"
)

// FieldError is a contract validation error: the file, the line and column
// of the offending value, the field's path ("objectives.percentiles[0].p")
// and what is wrong with it.
type FieldError struct {
	File   string
	Line   int
	Column int
	Field  string
	Msg    string
}

// Error renders "file:line:column: field: message".
func (e *FieldError) Error() string {
	return fmt.Sprintf("%s:%d:%d: %s: %s", e.File, e.Line, e.Column, e.Field, e.Msg)
}

// decoder walks a contract's YAML nodes and collects every validation error,
// so that one run of Load reports all of them.
type decoder struct {
	file string
	errs []error
	// lines records the line of every field read, by path.
	lines map[string]int
	// objAt is the path of the objectives being read: "objectives", or a
	// tier's "tiers.complete".
	objAt string
}

// errorf records an error at n.
func (d *decoder) errorf(n *yaml.Node, field, format string, args ...any) {
	d.errs = append(d.errs, &FieldError{File: d.file, Line: n.Line, Column: n.Column, Field: field, Msg: fmt.Sprintf(format, args...)})
}

// line records where a field is.
func (d *decoder) line(field string, line int) {
	if d.lines == nil {
		d.lines = map[string]int{}
	}
	d.lines[field] = line
}

// err joins the recorded errors; nil when there are none.
func (d *decoder) err() error { return errors.Join(d.errs...) }

// resolve follows an alias to the node it names.
func resolve(n *yaml.Node) *yaml.Node {
	for n != nil && n.Kind == yaml.AliasNode {
		n = n.Alias
	}
	return n
}

// mapping is a YAML mapping's fields by key, with the mapping node for
// errors about missing fields.
type mapping struct {
	node   *yaml.Node
	path   string
	fields map[string]*yaml.Node
}

// mapping reads n as a mapping whose keys must be among known; unknown and
// duplicate keys are errors. It returns nil (after recording an error)
// when n is not a mapping.
func (d *decoder) mapping(n *yaml.Node, path string, known ...string) *mapping {
	n = resolve(n)
	if n.Kind != yaml.MappingNode {
		d.errorf(n, path, "want a mapping of fields, got %s", describe(n))
		return nil
	}
	m := &mapping{node: n, path: path, fields: map[string]*yaml.Node{}}
	allowed := map[string]bool{}
	for _, k := range known {
		allowed[k] = true
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := resolve(n.Content[i]), n.Content[i+1]
		key := k.Value
		switch {
		case k.Kind != yaml.ScalarNode:
			d.errorf(k, path, "want a field name, got %s", describe(k))
		case !allowed[key]:
			d.errorf(k, join(path, key), "unknown field (known: %s)", strings.Join(sorted(known), ", "))
		case m.fields[key] != nil:
			d.errorf(k, join(path, key), "field given twice")
		default:
			m.fields[key] = v
			d.line(join(path, key), k.Line)
		}
	}
	return m
}

// has reports whether the field is present and not null.
func (m *mapping) has(key string) bool {
	if m == nil {
		return false
	}
	n := resolve(m.fields[key])
	return n != nil && !(n.Kind == yaml.ScalarNode && n.ShortTag() == "!!null")
}

// get returns the field's node, or nil when absent or null.
func (m *mapping) get(key string) *yaml.Node {
	if !m.has(key) {
		return nil
	}
	return resolve(m.fields[key])
}

// field returns the path of one of the mapping's fields.
func (m *mapping) field(key string) string { return join(m.path, key) }

// required records an error when the field is absent.
func (d *decoder) required(m *mapping, key string) bool {
	if m == nil {
		return false
	}
	if !m.has(key) {
		d.errorf(m.node, m.field(key), "required")
		return false
	}
	return true
}

// str reads a non-empty string scalar.
func (d *decoder) str(m *mapping, key string) string {
	n := m.get(key)
	if n == nil {
		return ""
	}
	if n.Kind != yaml.ScalarNode {
		d.errorf(n, m.field(key), "want a string, got %s", describe(n))
		return ""
	}
	if strings.TrimSpace(n.Value) == "" {
		d.errorf(n, m.field(key), "must not be empty")
		return ""
	}
	return n.Value
}

// integer reads an integer scalar that is at least min.
func (d *decoder) integer(m *mapping, key string, min int) int {
	n := m.get(key)
	if n == nil {
		return 0
	}
	var v int
	if n.Kind != yaml.ScalarNode || n.ShortTag() != "!!int" || n.Decode(&v) != nil {
		d.errorf(n, m.field(key), "want an integer, got %s", describe(n))
		return 0
	}
	if v < min {
		d.errorf(n, m.field(key), "want at least %d, got %d", min, v)
		return 0
	}
	return v
}

// number reads a finite number.
func (d *decoder) number(n *yaml.Node, field string) (float64, bool) {
	n = resolve(n)
	var v float64
	if n.Kind != yaml.ScalarNode || (n.ShortTag() != "!!int" && n.ShortTag() != "!!float") || n.Decode(&v) != nil {
		d.errorf(n, field, "want a number, got %s", describe(n))
		return 0, false
	}
	if math.IsNaN(v) || math.IsInf(v, 0) {
		d.errorf(n, field, "want a finite number, got %s", n.Value)
		return 0, false
	}
	return v, true
}

// fraction reads a number in [0, 1]; nil when absent.
func (d *decoder) fraction(m *mapping, key string) *float64 {
	n := m.get(key)
	if n == nil {
		return nil
	}
	v, ok := d.number(n, m.field(key))
	if !ok {
		return nil
	}
	if v < 0 || v > 1 {
		d.errorf(n, m.field(key), "want a fraction in [0, 1], got %s", n.Value)
		return nil
	}
	return &v
}

// positive reads a number > 0; nil when absent.
func (d *decoder) positive(m *mapping, key string) *float64 {
	n := m.get(key)
	if n == nil {
		return nil
	}
	v, ok := d.number(n, m.field(key))
	if !ok {
		return nil
	}
	if v <= 0 {
		d.errorf(n, m.field(key), "want a number greater than 0, got %s", n.Value)
		return nil
	}
	return &v
}

// boolean reads a boolean scalar, def when absent.
func (d *decoder) boolean(m *mapping, key string, def bool) bool {
	n := m.get(key)
	if n == nil {
		return def
	}
	var v bool
	if n.Kind != yaml.ScalarNode || n.ShortTag() != "!!bool" || n.Decode(&v) != nil {
		d.errorf(n, m.field(key), "want true or false, got %s", describe(n))
		return def
	}
	return v
}

// duration reads a positive duration with a unit ("300ms", "2s").
func (d *decoder) duration(m *mapping, key string) time.Duration {
	n := m.get(key)
	if n == nil {
		return 0
	}
	if n.Kind != yaml.ScalarNode || n.ShortTag() != "!!str" {
		d.errorf(n, m.field(key), "want a duration with a unit, like 300ms or 2s; got %s", describe(n))
		return 0
	}
	v, err := time.ParseDuration(n.Value)
	if err != nil || v <= 0 {
		d.errorf(n, m.field(key), "want a positive duration with a unit, like 300ms or 2s; got %q", n.Value)
		return 0
	}
	return v
}

// strings reads a sequence of non-empty string scalars.
func (d *decoder) strings(m *mapping, key string) []string {
	n := m.get(key)
	if n == nil {
		return nil
	}
	if n.Kind != yaml.SequenceNode {
		d.errorf(n, m.field(key), "want a list of strings, got %s", describe(n))
		return nil
	}
	var out []string
	for i, e := range n.Content {
		e = resolve(e)
		field := fmt.Sprintf("%s[%d]", m.field(key), i)
		if e.Kind != yaml.ScalarNode || e.ShortTag() == "!!null" || e.Value == "" {
			d.errorf(e, field, "want a non-empty string, got %s", describe(e))
			continue
		}
		out = append(out, e.Value)
	}
	return out
}

// stringMap reads a mapping of string values.
func (d *decoder) stringMap(m *mapping, key string) map[string]string {
	n := m.get(key)
	if n == nil {
		return nil
	}
	if n.Kind != yaml.MappingNode {
		d.errorf(n, m.field(key), "want a mapping of names to strings, got %s", describe(n))
		return nil
	}
	out := map[string]string{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := resolve(n.Content[i]), resolve(n.Content[i+1])
		field := join(m.field(key), k.Value)
		if _, dup := out[k.Value]; dup {
			d.errorf(k, field, "given twice")
			continue
		}
		if v.Kind != yaml.ScalarNode || v.ShortTag() == "!!null" {
			d.errorf(v, field, "want a string, got %s", describe(v))
			continue
		}
		out[k.Value] = v.Value
	}
	return out
}

// describe names a node's kind for an error message.
func describe(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	case yaml.ScalarNode:
		if n.ShortTag() == "!!null" {
			return "nothing (null)"
		}
		return fmt.Sprintf("%q", n.Value)
	}
	return "an unexpected YAML node"
}

// join appends a key to a field path.
func join(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

// sorted returns a sorted copy.
func sorted(xs []string) []string {
	out := append([]string(nil), xs...)
	sort.Strings(out)
	return out
}

// printable reads a string field that reaches the console (a model name)
// and records an error when it holds a control character or invalid
// UTF-8 (see schedule.CheckPrintableName).
func (d *decoder) printable(m *mapping, key string) string {
	v := d.str(m, key)
	if err := schedule.CheckPrintableName(key, v); err != nil {
		d.errorf(m.get(key), m.field(key), "%s", strings.TrimPrefix(err.Error(), key+": "))
	}
	return v
}
