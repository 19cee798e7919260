package scorer

import (
	"fmt"

	"github.com/servebench/servebench/servebench/report"
)

// TornLine is an outcome file's last line when a crash or a full disk cut
// it off mid-write: it does not end in a newline and is not a complete
// record.
type TornLine struct {
	// Number is the line's number in its file, from 1.
	Number int
	// Err is why the line does not decode.
	Err error
}

// MarkTornLine makes the report of a run directory with a torn last line
// not valid, naming the line.
func MarkTornLine(rep *report.Report, file string, torn *TornLine) {
	rep.Valid = false
	rep.InvalidReasons = append(rep.InvalidReasons, fmt.Sprintf(
		"%s:%d: the last line is torn (cut off mid-write, no newline at its end): the complete lines before it were scored and its request counts as unrecorded (%v)",
		file, torn.Number, torn.Err))
}
