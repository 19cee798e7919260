package quality

import (
	"fmt"
	"math"

	"github.com/servebench/servebench/servebench/record"
)

// Validate checks that expectation e itself is usable: its regular
// expression and schemas compile, its numbers are finite and its output
// bounds are consistent. Errors name the field ("regex: …"). A loader
// calls it so that a broken row is rejected before a run, not judged as a
// wrong answer during it.
func Validate(e *record.Expectation) error {
	if e == nil {
		return nil
	}
	if e.Regex != nil {
		if _, err := compileRegex(*e.Regex); err != nil {
			return fmt.Errorf("%s: %v", record.CheckRegex, err)
		}
	}
	if e.Number != nil && (math.IsNaN(*e.Number) || math.IsInf(*e.Number, 0)) {
		return fmt.Errorf("%s: must be a finite number", record.CheckNumber)
	}
	if e.JSONSchema != nil {
		if _, err := compileSchema(e.JSONSchema); err != nil {
			return fmt.Errorf("%s: %s", record.CheckJSONSchema, oneLine(err.Error()))
		}
	}
	if e.ToolArgumentsSchema != nil {
		if _, err := compileSchema(e.ToolArgumentsSchema); err != nil {
			return fmt.Errorf("%s: %s", record.CheckToolArgumentsSchema, oneLine(err.Error()))
		}
	}
	if e.FinishReason != nil && *e.FinishReason == "" {
		return fmt.Errorf("%s: must not be empty", record.CheckFinishReason)
	}
	if e.MinOutputTokens != nil && *e.MinOutputTokens < 0 {
		return fmt.Errorf("%s: must not be negative, got %d", record.CheckMinOutputTokens, *e.MinOutputTokens)
	}
	if e.MaxOutputTokens != nil && *e.MaxOutputTokens < 0 {
		return fmt.Errorf("%s: must not be negative, got %d", record.CheckMaxOutputTokens, *e.MaxOutputTokens)
	}
	if e.MinOutputTokens != nil && e.MaxOutputTokens != nil && *e.MinOutputTokens > *e.MaxOutputTokens {
		return fmt.Errorf("%s: %d is above %s %d", record.CheckMinOutputTokens, *e.MinOutputTokens, record.CheckMaxOutputTokens, *e.MaxOutputTokens)
	}
	return nil
}
