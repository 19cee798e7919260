package record

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
)

// TextInput is an embeddings row's input: one string, or an array of
// strings sent as one batched request. It is written back in the form it
// was read.
type TextInput struct {
	// Texts are the inputs, one vector each.
	Texts []string
	// Batch is true when the row gave an array (even of one string).
	Batch bool
}

// errInputShape is the error of an input that is neither a string nor an
// array of strings; it names its field, so the workload reader passes it
// on as it is.
var errInputShape = fieldError("input: want a string or an array of strings")

// fieldError is a decoding error that already names its field.
type fieldError string

func (e fieldError) Error() string { return string(e) }

// UnmarshalJSON reads a string or an array of strings.
func (in *TextInput) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	if len(b) > 0 && b[0] == '[' {
		var texts []string
		if err := json.Unmarshal(b, &texts); err != nil {
			return errInputShape
		}
		*in = TextInput{Texts: texts, Batch: true}
		return nil
	}
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return errInputShape
	}
	*in = TextInput{Texts: []string{s}}
	return nil
}

// MarshalJSON writes a string, or an array for a batch.
func (in TextInput) MarshalJSON() ([]byte, error) {
	if in.Batch {
		return json.Marshal(in.Texts)
	}
	if len(in.Texts) != 1 {
		return nil, fmt.Errorf("a single input holds %d texts", len(in.Texts))
	}
	return json.Marshal(in.Texts[0])
}

// Validate checks that the input has at least one non-empty text.
func (in *TextInput) Validate() error {
	if len(in.Texts) == 0 {
		return errors.New("input: an empty array; give at least one string")
	}
	for i, s := range in.Texts {
		if s == "" {
			if in.Batch {
				return fmt.Errorf("input[%d]: empty string", i)
			}
			return errors.New("input: empty string")
		}
	}
	return nil
}
