package strictjson

import (
	"reflect"
	"strings"
	"sync"
)

// fieldRules are the checks one struct field asks for.
type fieldRules struct {
	required bool
	nonNull  bool
}

// field is one JSON key of a struct type.
type field struct {
	name  string
	typ   reflect.Type
	rules fieldRules
}

// structFields lists a struct type's JSON keys.
type structFields struct {
	list   []field
	byName map[string]field
}

var fieldCache sync.Map // reflect.Type -> *structFields

// fieldsOf returns the JSON keys of struct type t, following encoding/json's
// naming (tag name, else the Go name; "-" skipped; embedded structs without a
// tag flattened), with the rules of the package comment.
func fieldsOf(t reflect.Type) *structFields {
	if f, ok := fieldCache.Load(t); ok {
		return f.(*structFields)
	}
	sf := &structFields{byName: map[string]field{}}
	collectFields(t, sf, map[reflect.Type]bool{})
	fieldCache.Store(t, sf)
	return sf
}

func collectFields(t reflect.Type, sf *structFields, visiting map[reflect.Type]bool) {
	if visiting[t] {
		return
	}
	visiting[t] = true
	defer delete(visiting, t)
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		tag := f.Tag.Get("json")
		if tag == "-" {
			continue
		}
		name, opts, _ := strings.Cut(tag, ",")
		ft := f.Type
		if f.Anonymous && name == "" {
			et := ft
			if et.Kind() == reflect.Pointer {
				et = et.Elem()
			}
			if et.Kind() == reflect.Struct {
				collectFields(et, sf, visiting)
				continue
			}
		}
		if !f.IsExported() {
			continue
		}
		if name == "" {
			name = f.Name
		}
		if _, dup := sf.byName[name]; dup {
			continue // the shallower field wins, as in encoding/json
		}
		rules := fieldRules{required: true}
		for _, o := range strings.Split(opts, ",") {
			if o == "omitempty" || o == "omitzero" {
				rules.required = false
			}
		}
		for _, o := range strings.Split(f.Tag.Get("strict"), ",") {
			switch strings.TrimSpace(o) {
			case "optional":
				rules.required = false
			case "nonnull":
				rules.nonNull = true
			}
		}
		fd := field{name: name, typ: ft, rules: rules}
		sf.list = append(sf.list, fd)
		sf.byName[name] = fd
	}
}
