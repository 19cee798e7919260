// Package quality judges one response against the expectation its workload
// row declares (a record.Expectation): exact text, a regular expression, a
// numeric answer, a JSON Schema for a JSON answer or for tool-call
// arguments, a required finish_reason, and bounds on the output length.
//
// A request whose row declares no expectation is unscored, never passed.
package quality

import "github.com/servebench/servebench/servebench/record"

// Response is what the judge looks at.
type Response struct {
	Text         string
	ToolCalls    []record.ToolCall
	FinishReason string
	// OutputTokens is nil when the count is unknown.
	OutputTokens *int
}
