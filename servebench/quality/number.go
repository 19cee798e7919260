package quality

import (
	"regexp"
	"strconv"
	"strings"
)

// AnswerMarker introduces the final numeric answer, as in GSM8K's
// reference solutions ("… so she has 42 apples. #### 42").
const AnswerMarker = "####"

// numberPattern matches a decimal number, with optional sign, thousands
// separators and fraction ("-1,234.5").
var numberPattern = regexp.MustCompile(`[-+]?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?`)

// NumericAnswer extracts the numeric answer from a response: the first
// number after the last AnswerMarker when the text has one, else the last
// number in the text. marked says whether the marker was there; ok is false
// when there is no number where the rule looks.
func NumericAnswer(text string) (value float64, marked, ok bool) {
	rest := text
	if i := strings.LastIndex(text, AnswerMarker); i >= 0 {
		marked, rest = true, text[i+len(AnswerMarker):]
	}
	all := numberPattern.FindAllString(rest, -1)
	if len(all) == 0 {
		return 0, marked, false
	}
	m := all[len(all)-1]
	if marked {
		m = all[0]
	}
	v, err := parseNumber(m)
	return v, marked, err == nil
}

// parseNumber parses a matched number, dropping thousands separators.
func parseNumber(s string) (float64, error) {
	return strconv.ParseFloat(strings.ReplaceAll(s, ",", ""), 64)
}
