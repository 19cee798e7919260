package schedule

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/servebench/servebench/servebench/record"
)

// CheckPrintableName refuses a name that reaches records, reports or the
// console (a request ID, a class, a conversation, a model name) when it
// holds invalid UTF-8 or a control character, which could rewrite a
// terminal's or a log's lines. field names it in the error, which gives
// the byte offset and never prints the character itself.
func CheckPrintableName(field, s string) error {
	for i, r := range s {
		switch {
		case r == utf8.RuneError && !strings.HasPrefix(s[i:], "\uFFFD"):
			return fmt.Errorf("%s: invalid UTF-8 at byte %d", field, i)
		case unicode.IsControl(r) || r == '\u2028' || r == '\u2029':
			return fmt.Errorf("%s: holds the control character %U at byte %d", field, r, i)
		}
	}
	return nil
}

// checkRowNames refuses a row whose ID, class or conversation is not
// printable (see CheckPrintableName).
func checkRowNames(r *record.Request) error {
	for _, f := range []struct{ name, value string }{{"id", r.ID}, {"class", r.Class}, {"conversation", r.Conversation}} {
		if err := CheckPrintableName(f.name, f.value); err != nil {
			return err
		}
	}
	return nil
}

// checkLineUTF8 refuses a workload line that is not valid UTF-8 (JSON
// text must be, and the decoder would replace the bytes silently).
func checkLineUTF8(raw []byte) error {
	if utf8.Valid(raw) {
		return nil
	}
	for i := 0; i < len(raw); {
		r, n := utf8.DecodeRune(raw[i:])
		if r == utf8.RuneError && n <= 1 {
			return fmt.Errorf("row: invalid UTF-8 at byte %d of the line", i)
		}
		i += n
	}
	return nil
}
