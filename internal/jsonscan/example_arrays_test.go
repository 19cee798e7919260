package jsonscan_test

import (
	"fmt"

	"github.com/servebench/servebench/internal/jsonscan"
)

// Reading a record's event times and token counts: a key matched whole,
// then each array in one call.
func ExampleScanner_AppendFloats() {
	s := jsonscan.New([]byte(`"content_ms":[186.148,195.714,216.802],"event_tokens":[1,1,2]`))
	if !s.Literal(`"content_ms":`) {
		return
	}
	times, ok := s.AppendFloats(nil)
	fmt.Println(times, ok)
	if !s.Byte(',') || !s.Literal(`"event_tokens":`) {
		return
	}
	tokens, ok := s.AppendInts(nil)
	fmt.Println(tokens, ok, s.AtEnd())
	// Output:
	// [186.148 195.714 216.802] true
	// [1 1 2] true true
}
