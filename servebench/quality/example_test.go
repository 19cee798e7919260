package quality_test

import (
	"encoding/json"
	"fmt"

	"github.com/servebench/servebench/servebench/quality"
	"github.com/servebench/servebench/servebench/record"
)

// A workload row declares its expectation in JSON; Judge checks a response
// against it and says which check failed and on what.
func ExampleJudge() {
	var exp record.Expectation
	_ = json.Unmarshal([]byte(`{"number": 42, "finish_reason": "stop"}`), &exp)

	v := quality.Judge(&exp, quality.Response{Text: "6 × 7 = 42\n#### 42", FinishReason: "stop"})
	fmt.Println(v.Pass)

	v = quality.Judge(&exp, quality.Response{Text: "6 × 7 = 41\n#### 41", FinishReason: "stop"})
	fmt.Println(v.Pass, v.Check+":", v.Evidence)

	// A row without an expectation is unscored, never passed.
	fmt.Println(quality.Judge(nil, quality.Response{Text: "anything"}) == nil)
	// Output:
	// true
	// false number: answer 41 after the last "####", want 42
	// true
}

// Tool-call arguments are validated with a JSON Schema; malformed arguments
// are a quality failure with the parse error as evidence.
func ExampleJudge_toolArguments() {
	var exp record.Expectation
	_ = json.Unmarshal([]byte(`{"tool_arguments_schema": {"type": "object",
		"properties": {"severity": {"enum": ["critical", "high", "medium", "low"]}},
		"required": ["severity"]}}`), &exp)

	good := record.ToolCall{Name: "page_oncall", Arguments: `{"severity": "high"}`}
	bad := record.ToolCall{Name: "page_oncall", Arguments: `{"severity": "high"`}
	fmt.Println(quality.Judge(&exp, quality.Response{ToolCalls: []record.ToolCall{good}}).Pass)
	fmt.Println(quality.Judge(&exp, quality.Response{ToolCalls: []record.ToolCall{bad}}).Evidence)
	// Output:
	// true
	// tool call 1 (page_oncall): arguments are not JSON (unexpected EOF): "{\"severity\": \"high\""
}

// NumericAnswer reads the answer after the last "####" marker.
func ExampleNumericAnswer() {
	v, marked, ok := quality.NumericAnswer("She pays 3 + 4 = 7 dollars.\n#### 7")
	fmt.Println(v, marked, ok)
	// Output: 7 true true
}

// Validate rejects a broken expectation before a run.
func ExampleValidate() {
	min, max := 50, 10
	exp := record.Expectation{MinOutputTokens: &min, MaxOutputTokens: &max}
	fmt.Println(quality.Validate(&exp))
	// Output: min_output_tokens: 50 is above max_output_tokens 10
}
