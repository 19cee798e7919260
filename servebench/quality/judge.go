package quality

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/servebench/servebench/servebench/record"
)

// Judge checks response r against expectation exp and returns the verdict.
// A nil expectation, or one that declares no check, leaves the response
// unscored: Judge returns nil, never a pass. Otherwise every declared check
// runs; the verdict passes only when all of them hold, names the first
// failure in Check and Evidence, and lists every failure in Failures.
//
// An expectation that is itself broken (a regular expression or a schema
// that does not compile) fails the check it declares, with evidence that
// says the expectation is at fault; Validate finds such rows before a run.
func Judge(exp *record.Expectation, r Response) *record.Verdict {
	checks := exp.Checks()
	if len(checks) == 0 {
		return nil
	}
	v := &record.Verdict{Pass: true, Checks: checks}
	for _, name := range checks {
		if evidence, ok := runCheck(exp, name, r); !ok {
			v.Failures = append(v.Failures, record.Failure{Check: name, Evidence: evidence})
		}
	}
	if len(v.Failures) > 0 {
		v.Pass = false
		v.Check, v.Evidence = v.Failures[0].Check, v.Failures[0].Evidence
	}
	return v
}

// runCheck runs one declared check; it returns the evidence of a failure
// and false, or "" and true.
func runCheck(e *record.Expectation, name string, r Response) (string, bool) {
	switch name {
	case record.CheckFinishReason:
		if canonicalFinishReason(r.FinishReason) != canonicalFinishReason(*e.FinishReason) {
			return fmt.Sprintf("finish_reason is %q, want %q", r.FinishReason, *e.FinishReason), false
		}
	case record.CheckMinOutputTokens:
		switch {
		case r.OutputTokens == nil:
			return fmt.Sprintf("output token count unknown, want at least %d", *e.MinOutputTokens), false
		case *r.OutputTokens < *e.MinOutputTokens:
			return fmt.Sprintf("%d output tokens, want at least %d", *r.OutputTokens, *e.MinOutputTokens), false
		}
	case record.CheckMaxOutputTokens:
		switch {
		case r.OutputTokens == nil:
			return fmt.Sprintf("output token count unknown, want at most %d", *e.MaxOutputTokens), false
		case *r.OutputTokens > *e.MaxOutputTokens:
			return fmt.Sprintf("%d output tokens, want at most %d", *r.OutputTokens, *e.MaxOutputTokens), false
		}
	case record.CheckExact:
		got, want := strings.TrimSpace(r.Text), strings.TrimSpace(*e.Exact)
		if got != want {
			return fmt.Sprintf("text %s, want %s", quote(got), quote(want)), false
		}
	case record.CheckRegex:
		re, err := compileRegex(*e.Regex)
		if err != nil {
			return fmt.Sprintf("the expectation's regex does not compile: %v", err), false
		}
		if !re.MatchString(r.Text) {
			return fmt.Sprintf("no match for /%s/ in text %s", *e.Regex, quote(r.Text)), false
		}
	case record.CheckNumber:
		return checkNumber(*e.Number, r.Text)
	case record.CheckJSONSchema:
		return checkJSONAnswer(e.JSONSchema, r.Text)
	case record.CheckToolArgumentsSchema:
		return checkToolArguments(e.ToolArgumentsSchema, r.ToolCalls)
	}
	return "", true
}

// checkNumber compares the response's numeric answer with want.
func checkNumber(want float64, text string) (string, bool) {
	got, marked, ok := NumericAnswer(text)
	switch {
	case !ok && marked:
		return fmt.Sprintf("no number after the last %q in text %s, want %s", AnswerMarker, quote(text), formatNumber(want)), false
	case !ok:
		return fmt.Sprintf("no number in text %s (no %q marker), want %s", quote(text), AnswerMarker, formatNumber(want)), false
	case math.Abs(got-want) <= 1e-9*math.Max(1, math.Abs(want)):
		return "", true
	case marked:
		return fmt.Sprintf("answer %s after the last %q, want %s", formatNumber(got), AnswerMarker, formatNumber(want)), false
	}
	return fmt.Sprintf("answer %s (the last number; no %q marker), want %s", formatNumber(got), AnswerMarker, formatNumber(want)), false
}

// formatNumber prints a number in its shortest exact form ("42", "2.5").
func formatNumber(f float64) string {
	return strconv.FormatFloat(f, 'f', -1, 64)
}

// evidenceLimit bounds how much of a response a piece of evidence quotes.
const evidenceLimit = 160

// quote renders s for evidence: quoted, and cut to evidenceLimit bytes
// (on a character boundary) with the full length said when it is longer.
func quote(s string) string {
	if len(s) <= evidenceLimit {
		return fmt.Sprintf("%q", s)
	}
	cut := evidenceLimit
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return fmt.Sprintf("%q… (%d bytes)", s[:cut], len(s))
}
