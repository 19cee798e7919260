package jsonscan

import "testing"

func TestObject(t *testing.T) {
	keys := NewKeys("id", "n", "tag")
	cases := []struct {
		in   string
		seen uint64
		ok   bool
		got  []int // the key numbers field was called with, in turn
	}{
		{`{}`, 0, true, nil},
		{`{"id":"a","n":1,"tag":"x"}`, 0b111, true, []int{0, 1, 2}},
		{`{"tag":"x","id":"a"}`, 0b101, true, []int{2, 0}},       // out of order: found by name
		{` { "n" : 1 , "id" : "a" } `, 0b011, true, []int{1, 0}}, // spaces: found by name
		{`{"id":"a","id":"b"}`, 0b001, false, []int{0}},          // repeated
		{`{"id":"a","other":1}`, 0b001, false, []int{0}},         // unknown
		{`{"id":"a" "n":1}`, 0b001, false, []int{0}},             // no comma
		{`{"id":"a",}`, 0b001, false, []int{0}},                  // trailing comma
		{`{"id" "a"}`, 0, false, nil},                            // no colon
		{`["id"]`, 0, false, nil},                                // not an object
		{`{"n":"not a number"}`, 0b010, false, []int{1}},         // field refused its value
		{`{"id":"a"`, 0b001, false, []int{0}},                    // unclosed
	}
	for _, c := range cases {
		s := New([]byte(c.in))
		var got []int
		seen, ok := s.Object(keys, func(f int) bool {
			got = append(got, f)
			if f == 1 {
				_, ok := s.Int()
				return ok
			}
			_, ok := s.Str()
			return ok
		})
		if seen != c.seen || ok != c.ok || len(got) != len(c.got) {
			t.Errorf("%s: seen %b, ok %v, fields %v; want %b, %v, %v", c.in, seen, ok, got, c.seen, c.ok, c.got)
			continue
		}
		for i := range got {
			if got[i] != c.got[i] {
				t.Errorf("%s: fields %v, want %v", c.in, got, c.got)
				break
			}
		}
	}
}

func TestNewKeysRefusesMoreThan64(t *testing.T) {
	names := make([]string, 65)
	for i := range names {
		names[i] = string(rune('a'+i%26)) + string(rune('a'+i/26))
	}
	defer func() {
		if recover() == nil {
			t.Error("NewKeys took 65 keys")
		}
	}()
	NewKeys(names...)
}
