package report_test

import (
	"fmt"

	"github.com/servebench/servebench/servebench/report"
)

// A row's prompt length compared with what the engine reported.
func ExampleComparePromptTokens() {
	m := report.ComparePromptTokens(512, 525, report.DefaultPromptTokenTolerance)
	fmt.Println(m)
	m = report.ComparePromptTokens(100, 120, report.DefaultPromptTokenTolerance)
	fmt.Println(m.Mismatch, m.Difference)
	// Output:
	// requested 512 prompt tokens, engine reported 525 (+13, within the allowed ±26)
	// true 20
}
