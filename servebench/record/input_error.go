package record

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/servebench/servebench/internal/strictjson"
)

// InputError is malformed or incomplete scorer input: it names the file,
// the line (and column where known), the request and the field.
type InputError struct {
	// File names the input; empty for in-memory outcomes.
	File string
	// Line and Column are 1-based; zero when unknown.
	Line, Column int
	// ID is the request the problem belongs to, if any.
	ID string
	// Field is the JSON path of the offending value, if any.
	Field string
	// Msg says what is wrong.
	Msg string
}

// Error formats the error as `FILE:LINE:COL: request "ID": field "F": MSG`,
// leaving out the parts that are unknown.
func (e *InputError) Error() string {
	var b strings.Builder
	if e.File != "" {
		b.WriteString(e.File)
		if e.Line > 0 {
			b.WriteString(":" + strconv.Itoa(e.Line))
			if e.Column > 0 {
				b.WriteString(":" + strconv.Itoa(e.Column))
			}
		}
		b.WriteString(": ")
	}
	if e.ID != "" {
		fmt.Fprintf(&b, "request %q: ", e.ID)
	}
	if e.Field != "" {
		fmt.Fprintf(&b, "field %q: ", e.Field)
	}
	b.WriteString(e.Msg)
	return b.String()
}

// InputErrorFromJSON turns a strictjson error found in one line (or in a
// whole file when line is 0) into a InputError.
func InputErrorFromJSON(file string, line int, err error) error {
	var je *strictjson.Error
	if !errors.As(err, &je) {
		return &InputError{File: file, Line: line, Msg: err.Error()}
	}
	e := &InputError{File: file, Line: je.Line, Column: je.Column, Field: je.Field, Msg: je.Msg}
	if line > 0 {
		e.Line = line // a JSONL record is one line; its column stands
	}
	return e
}

// InputErrorAt builds a InputError for a problem found after decoding,
// locating field in the bytes of the record to give a column (or the line
// too, for a multi-line file).
func InputErrorAt(file string, line int, data []byte, id, field, format string, args ...any) error {
	e := &InputError{File: file, Line: line, ID: id, Field: field, Msg: fmt.Sprintf(format, args...)}
	if data != nil && field != "" {
		if l, c, ok := strictjson.Locate(data, field); ok {
			e.Column = c
			if line == 0 {
				e.Line = l
			} else if l > 1 {
				e.Column = 0 // a record spanning lines: the column would mislead
			}
		}
	}
	return e
}
