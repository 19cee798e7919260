// Package quality judges one response against the expectation its workload
// row declares: exact text, a regular expression, a numeric answer, a JSON
// Schema for a JSON answer or for tool-call arguments, a required
// finish_reason, and bounds on the output length.
//
// A request whose row declares no expectation is unscored, never passed.
package quality

// Expectation is what a workload row says a good response looks like. Every
// field is optional; a response passes when every declared check holds.
type Expectation struct {
	// Exact is the whole visible text, compared after trimming surrounding
	// white space.
	Exact *string `json:"exact,omitempty"`
	// Regex must match somewhere in the visible text (RE2 syntax).
	Regex *string `json:"regex,omitempty"`
	// Number is the numeric answer, read after the last "####" marker in
	// the text (or the last number when there is no marker).
	Number *float64 `json:"number,omitempty"`
	// JSONSchema must validate the visible text parsed as JSON.
	JSONSchema map[string]any `json:"json_schema,omitempty"`
	// ToolArgumentsSchema must validate the arguments of every tool call,
	// and at least one tool call must be present.
	ToolArgumentsSchema map[string]any `json:"tool_arguments_schema,omitempty"`
	// FinishReason is the finish_reason the response must end with; TGI's
	// "eos_token" and "stop_sequence" count as "stop".
	FinishReason *string `json:"finish_reason,omitempty"`
	// MinOutputTokens and MaxOutputTokens bound the output token count.
	MinOutputTokens *int `json:"min_output_tokens,omitempty"`
	MaxOutputTokens *int `json:"max_output_tokens,omitempty"`
}

// ToolCall is one tool call the model made: the function name and its
// arguments as the raw JSON text the server sent.
type ToolCall struct {
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
}

// Response is what the judge looks at.
type Response struct {
	Text         string
	ToolCalls    []ToolCall
	FinishReason string
	// OutputTokens is nil when the count is unknown.
	OutputTokens *int
}

// Verdict is the result of judging one response, with its evidence.
type Verdict struct {
	// Pass is true when every declared check held.
	Pass bool `json:"pass"`
	// Check names the first check that failed ("regex", "json_schema", …).
	Check string `json:"check,omitempty"`
	// Evidence says what the failed check saw.
	Evidence string `json:"evidence,omitempty"`
	// Checks names every check that ran, in order.
	Checks []string `json:"checks,omitempty"`
	// Failures lists every check that failed, with its evidence; the first
	// is also in Check and Evidence.
	Failures []Failure `json:"failures,omitempty"`
}
