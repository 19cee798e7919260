package record

// Expectation is what a workload row says a good response looks like. Every
// field is optional; a response passes when every declared check holds.
// Package quality judges a response against it and validates it.
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

// The names of the checks, as a Verdict reports them. Each is the JSON name
// of the Expectation field that declares it.
const (
	CheckFinishReason        = "finish_reason"
	CheckMinOutputTokens     = "min_output_tokens"
	CheckMaxOutputTokens     = "max_output_tokens"
	CheckExact               = "exact"
	CheckRegex               = "regex"
	CheckNumber              = "number"
	CheckJSONSchema          = "json_schema"
	CheckToolArgumentsSchema = "tool_arguments_schema"
)

// Checks returns the names of the checks e declares, in the order they
// run: the cheap protocol checks (finish reason, output length) come
// first, because a truncated response often explains a content failure.
func (e *Expectation) Checks() []string {
	if e == nil {
		return nil
	}
	var names []string
	add := func(declared bool, name string) {
		if declared {
			names = append(names, name)
		}
	}
	add(e.FinishReason != nil, CheckFinishReason)
	add(e.MinOutputTokens != nil, CheckMinOutputTokens)
	add(e.MaxOutputTokens != nil, CheckMaxOutputTokens)
	add(e.Exact != nil, CheckExact)
	add(e.Regex != nil, CheckRegex)
	add(e.Number != nil, CheckNumber)
	add(e.JSONSchema != nil, CheckJSONSchema)
	add(e.ToolArgumentsSchema != nil, CheckToolArgumentsSchema)
	return names
}

// ToolCall is one tool call the model made: the function name and its
// arguments as the raw JSON text the server sent.
type ToolCall struct {
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
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

// Failure is one declared check that did not hold, with what it saw.
type Failure struct {
	// Check names the check (one of the Check constants).
	Check string `json:"check"`
	// Evidence says what the check saw.
	Evidence string `json:"evidence"`
}
