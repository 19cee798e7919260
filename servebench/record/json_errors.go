package record

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
)

// DescribeJSONError turns encoding/json's errors into messages that name the
// field.
func DescribeJSONError(err error) error {
	switch e := err.(type) {
	case *json.UnmarshalTypeError:
		field := e.Field
		if field == "" {
			field = "row"
		}
		return fmt.Errorf("%s: expected %s, got JSON %s", field, jsonKind(e.Type), e.Value)
	case *json.SyntaxError:
		return fmt.Errorf("malformed JSON at byte %d: %v", e.Offset, e)
	case fieldError:
		return e
	}
	if field, ok := strings.CutPrefix(err.Error(), "json: unknown field "); ok {
		return fmt.Errorf("%s: unknown field", strings.Trim(field, `"`))
	}
	return fmt.Errorf("malformed row: %w", err)
}

// jsonKind names the JSON value a Go type is decoded from, for errors
// that must not show Go type names.
func jsonKind(t reflect.Type) string {
	if t == nil {
		return "a JSON value"
	}
	switch t.Kind() {
	case reflect.Pointer:
		return jsonKind(t.Elem())
	case reflect.Struct, reflect.Map:
		return "a JSON object"
	case reflect.Slice, reflect.Array:
		return "a JSON array"
	case reflect.String:
		return "a JSON string"
	case reflect.Bool:
		return "true or false"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "an integer"
	case reflect.Float32, reflect.Float64:
		return "a number"
	}
	return "a JSON value"
}
