package quality

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

// Failure is one declared check that did not hold, with what it saw.
type Failure struct {
	// Check names the check (one of the Check constants).
	Check string `json:"check"`
	// Evidence says what the check saw.
	Evidence string `json:"evidence"`
}

// Checks returns the names of the checks e declares, in the order Judge
// runs them: the cheap protocol checks (finish reason, output length) come
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
