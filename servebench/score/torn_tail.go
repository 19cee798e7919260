package score

import (
	"bytes"

	"github.com/servebench/servebench/servebench/internal/scorer"
	"github.com/servebench/servebench/servebench/record"
)

// splitTornTail parses an outcome file's lines with decode and, when only
// the last one fails and the file does not end with a newline, sets that
// line aside as torn: the complete lines before it are scored and its
// request counts as unrecorded. Any other malformed line is an error.
func splitTornTail(data []byte, lines []jsonlLine, decode func(jsonlLine) (record.Outcome, error)) ([]record.Outcome, []jsonlLine, *scorer.TornLine, error) {
	outcomes, bad, err := decodeJSONL(lines, decode)
	if err == nil {
		return outcomes, lines, nil, nil
	}
	if bad != len(lines)-1 || bytes.HasSuffix(data, []byte{'\n'}) {
		return nil, nil, nil, err
	}
	return outcomes[:bad], lines[:bad], &scorer.TornLine{Number: lines[bad].number, Err: err}, nil
}
