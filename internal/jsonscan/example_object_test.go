package jsonscan_test

import (
	"fmt"

	"github.com/servebench/servebench/internal/jsonscan"
)

// A fast decoder reads an object whose keys it knows, each key's value by
// its number; anything else is left to a strict decoder.
func ExampleScanner_Object() {
	keys := jsonscan.NewKeys("id", "tokens")
	var id string
	var tokens int
	s := jsonscan.New([]byte(`{"id":"r-7","tokens":64}`))
	seen, ok := s.Object(keys, func(f int) bool {
		var ok bool
		switch f {
		case 0:
			id, ok = s.Text()
		case 1:
			tokens, ok = s.Int()
		}
		return ok
	})
	fmt.Println(id, tokens, seen == 0b11, ok)
	// Output: r-7 64 true true
}
