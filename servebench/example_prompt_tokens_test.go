package servebench_test

import (
	"fmt"

	"github.com/servebench/servebench/servebench"
)

// A row's prompt length compared with what the engine reported.
func ExampleComparePromptTokens() {
	m := servebench.ComparePromptTokens(512, 525, servebench.DefaultPromptTokenTolerance)
	fmt.Println(m)
	m = servebench.ComparePromptTokens(100, 120, servebench.DefaultPromptTokenTolerance)
	fmt.Println(m.Mismatch, m.Difference)
	// Output:
	// requested 512 prompt tokens, engine reported 525 (+13, within the allowed ±26)
	// true 20
}
