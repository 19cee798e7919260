package score

import (
	"bytes"
	"fmt"

	"github.com/servebench/servebench/servebench/record"
	"github.com/servebench/servebench/servebench/report"
)

// TornLine is an outcome file's last line when a crash or a full disk cut
// it off mid-write: it does not end in a newline and is not a complete
// record.
type TornLine struct {
	Number int
	Err    error
}

// splitTornTail parses an outcome file's lines with decode and, when only
// the last one fails and the file does not end with a newline, sets that
// line aside as torn: the complete lines before it are scored and its
// request counts as unrecorded. Any other malformed line is an error.
func splitTornTail(data []byte, lines []jsonlLine, decode func(jsonlLine) (record.Outcome, error)) ([]record.Outcome, []jsonlLine, *TornLine, error) {
	outcomes, bad, err := decodeJSONL(lines, decode)
	if err == nil {
		return outcomes, lines, nil, nil
	}
	if bad != len(lines)-1 || bytes.HasSuffix(data, []byte{'\n'}) {
		return nil, nil, nil, err
	}
	return outcomes[:bad], lines[:bad], &TornLine{Number: lines[bad].number, Err: err}, nil
}

// MarkTornLine makes the report of a run directory with a torn last line
// not valid, naming the line.
func MarkTornLine(rep *report.Report, file string, torn *TornLine) {
	rep.Valid = false
	rep.InvalidReasons = append(rep.InvalidReasons, fmt.Sprintf(
		"%s:%d: the last line is torn (cut off mid-write, no newline at its end): the complete lines before it were scored and its request counts as unrecorded (%v)",
		file, torn.Number, torn.Err))
}
