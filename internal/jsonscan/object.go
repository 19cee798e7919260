package jsonscan

import "fmt"

// Keys are the keys of an object that a fast decoder knows, numbered in
// the order its writer writes them. There are at most 64, so that the
// keys an object held fit in one bit set.
type Keys struct {
	literals []string // each key quoted, with its colon, as the writer writes it
	index    map[string]int
}

// NewKeys numbers names in the order given: name i is key i.
func NewKeys(names ...string) *Keys {
	if len(names) > 64 {
		panic(fmt.Sprintf("jsonscan.NewKeys: %d keys, at most 64", len(names)))
	}
	k := &Keys{literals: make([]string, len(names)), index: make(map[string]int, len(names))}
	for i, name := range names {
		k.literals[i] = `"` + name + `":`
		k.index[name] = i
	}
	return k
}

// Object reads an object each of whose keys is one of keys, none twice,
// calling field with the key's number and the scanner at its value; field
// reads the value and reports whether it could. It returns the set of keys
// the object held (bit i for key i), and false for anything else: a key
// not in keys, a key repeated, a value field could not read, or an object
// that is not well formed.
//
// The key that follows in the writer's order is matched whole, with its
// colon, in one comparison; any other goes through the string reader.
func (s *Scanner) Object(keys *Keys, field func(f int) bool) (seen uint64, ok bool) {
	if !s.Byte('{') {
		return 0, false
	}
	if s.Byte('}') {
		return 0, true
	}
	for next := 0; ; {
		f, known := next, next < len(keys.literals) && s.Literal(keys.literals[next])
		if !known {
			key, ok := s.Str()
			if !ok || !s.Byte(':') {
				return seen, false
			}
			f, known = keys.index[string(key)]
		}
		if !known || seen&(1<<f) != 0 {
			return seen, false
		}
		seen |= 1 << f
		next = f + 1
		if !field(f) {
			return seen, false
		}
		if s.Byte(',') {
			continue
		}
		return seen, s.Byte('}')
	}
}
