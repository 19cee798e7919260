// Package strictjson decodes one JSON value into a Go struct and refuses
// everything encoding/json would let through quietly: unknown fields, missing
// required fields, duplicate keys, keys that differ from a field's name only in
// case, null for a value that cannot be null, fractional or out-of-range
// integers, arrays of the wrong length for a Go array, non-finite numbers
// (NaN, Infinity, or a literal too large for a float64) and data after the
// value. Every error names the field by its JSON path and says where it is.
//
// A struct field is required unless its json tag says omitempty or omitzero,
// or its strict tag says optional; so a file written by json.Marshal from the
// same type always has every required field. The strict tag takes a
// comma-separated list:
//
//	optional  the key may be absent
//	nonnull   a slice or map may not be null (pointers are always nullable)
package strictjson

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"slices"
	"strconv"
	"strings"
)

// Error says what is wrong with the input and where.
type Error struct {
	// Field is the JSON path of the offending value ("requests[2].id"),
	// empty when the problem is not inside a field.
	Field string
	// Offset is the byte offset of the offending value in the input.
	Offset int64
	// Line and Column are 1-based and count bytes.
	Line, Column int
	// Msg says what is wrong.
	Msg string
}

// Error formats the error as "line L, column C: field "F": MSG".
func (e *Error) Error() string {
	return fmt.Sprintf("line %d, column %d: %s", e.Line, e.Column, e.Detail())
}

// Detail is the error without its position: `field "F": MSG`.
func (e *Error) Detail() string {
	if e.Field == "" {
		return e.Msg
	}
	return fmt.Sprintf("field %q: %s", e.Field, e.Msg)
}

// Decode checks data against the type v points to and, when every check
// passes, stores the value in v. v must be a non-nil pointer to a struct.
// The returned error is an *Error for every problem in the input.
func Decode(data []byte, v any) error {
	rv := reflect.ValueOf(v)
	if rv.Kind() != reflect.Pointer || rv.IsNil() || rv.Elem().Kind() != reflect.Struct {
		return fmt.Errorf("strictjson: Decode needs a non-nil pointer to a struct, got %T", v)
	}
	w := newWalker(data)
	tok, err := w.next()
	if err != nil {
		return err
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return w.errAt(w.start, "want a JSON object, got %s", describe(tok))
	}
	if err := w.value(tok, rv.Elem().Type(), fieldRules{}); err != nil {
		return err
	}
	if err := w.end(); err != nil {
		return err
	}
	if err := json.Unmarshal(data, v); err != nil {
		// The walk accepts only what Unmarshal can store, so this is a
		// type the walk treats generically (a custom unmarshaler).
		return w.errAt(0, "%v", err)
	}
	return nil
}

// Locate finds where the value at a JSON path (as Error.Field writes it)
// starts in data. It is meant for errors found after decoding, such as a
// duplicate ID in an array element, and costs a walk over data.
func Locate(data []byte, field string) (line, column int, ok bool) {
	w := newWalker(data)
	tok, err := w.next()
	if err != nil {
		return 0, 0, false
	}
	off, found := w.find(tok, field)
	if !found {
		return 0, 0, false
	}
	line, column = position(data, off)
	return line, column, true
}

// walker reads tokens and keeps the offset where the last one started.
type walker struct {
	data  []byte
	dec   *json.Decoder
	start int64 // offset where the most recent token started
	// path is the JSON path of the value being checked, rendered only
	// when an error needs it.
	path []pathSeg
}

// pathSeg is one step of a JSON path: an object key or an array index.
type pathSeg struct {
	key   string
	index int // -1 for a key
}

func (w *walker) pushKey(k string) { w.path = append(w.path, pathSeg{key: k, index: -1}) }
func (w *walker) pushIndex(i int)  { w.path = append(w.path, pathSeg{index: i}) }
func (w *walker) pop()             { w.path = w.path[:len(w.path)-1] }

// pathString renders the current path as "requests[2].id".
func (w *walker) pathString() string {
	var b strings.Builder
	for _, seg := range w.path {
		if seg.index >= 0 {
			b.WriteString("[" + strconv.Itoa(seg.index) + "]")
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('.')
		}
		b.WriteString(seg.key)
	}
	return b.String()
}

func newWalker(data []byte) *walker {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	return &walker{data: data, dec: dec}
}

// next reads one token, recording where it starts, and turns syntax errors
// into *Error with the position and, for NaN and Infinity, a plain reason.
func (w *walker) next() (json.Token, error) {
	w.start = w.skipSpace(w.dec.InputOffset())
	tok, err := w.dec.Token()
	if err == nil {
		return tok, nil
	}
	if err == io.EOF || err == io.ErrUnexpectedEOF {
		return nil, w.errAt(w.start, "unexpected end of input")
	}
	rest := w.data[min(int(w.start), len(w.data)):]
	for _, lit := range []string{"NaN", "Infinity", "-Infinity", "+Infinity", "-NaN"} {
		if bytes.HasPrefix(rest, []byte(lit)) {
			return nil, w.errAt(w.start, "non-finite number %s", lit)
		}
	}
	var se *json.SyntaxError
	if errors.As(err, &se) {
		off := se.Offset - 1
		if off < w.start {
			off = w.start
		}
		return nil, w.errAt(off, "malformed JSON: %s", se.Error())
	}
	return nil, w.errAt(w.start, "malformed JSON: %v", err)
}

// skipSpace moves past white space and the separators the decoder consumes
// lazily, so the offset points at the next token itself.
func (w *walker) skipSpace(off int64) int64 {
	for int(off) < len(w.data) {
		switch w.data[off] {
		case ' ', '\t', '\r', '\n', ',', ':':
			off++
		default:
			return off
		}
	}
	return off
}

// end insists that nothing but white space follows the value. (Unlike
// skipSpace it stops at a separator: after the value, one is data.)
func (w *walker) end() error {
	off := w.dec.InputOffset()
	for int(off) < len(w.data) && strings.IndexByte(" \t\r\n", w.data[off]) >= 0 {
		off++
	}
	if int(off) < len(w.data) {
		return w.errAt(off, "unexpected data after the JSON value")
	}
	return nil
}

// errAt builds an error for the value at the current path.
func (w *walker) errAt(off int64, format string, args ...any) *Error {
	line, col := position(w.data, off)
	return &Error{Field: w.pathString(), Offset: off, Line: line, Column: col, Msg: fmt.Sprintf(format, args...)}
}

// position converts a byte offset into a 1-based line and column.
func position(data []byte, off int64) (line, column int) {
	if off > int64(len(data)) {
		off = int64(len(data))
	}
	before := data[:off]
	line = bytes.Count(before, []byte{'\n'}) + 1
	column = int(off) - (bytes.LastIndexByte(before, '\n') + 1) + 1
	return line, column
}

var (
	unmarshalerType = reflect.TypeFor[json.Unmarshaler]()
	rawMessageType  = reflect.TypeFor[json.RawMessage]()
)

// value checks the value that starts with tok against type t.
func (w *walker) value(tok json.Token, t reflect.Type, rules fieldRules) error {
	if tok == nil {
		return w.null(t, rules)
	}
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t == rawMessageType || t.Kind() == reflect.Interface || reflect.PointerTo(t).Implements(unmarshalerType) {
		return w.generic(tok)
	}
	switch t.Kind() {
	case reflect.Struct:
		return w.object(tok, t)
	case reflect.Map:
		if t.Key().Kind() != reflect.String {
			return w.generic(tok)
		}
		return w.mapValue(tok, t)
	case reflect.Slice:
		if t.Elem().Kind() == reflect.Uint8 {
			if _, ok := tok.(string); !ok {
				return w.errAt(w.start, "want a base64 string, got %s", describe(tok))
			}
			return nil
		}
		return w.array(tok, t, -1)
	case reflect.Array:
		return w.array(tok, t, t.Len())
	}
	return w.scalar(tok, t)
}

// null checks a null against type t: a pointer, an interface or a raw
// message takes it, and so do a slice and a map unless their field's rules
// say nonNull.
func (w *walker) null(t reflect.Type, rules fieldRules) error {
	switch {
	case t.Kind() == reflect.Pointer, t.Kind() == reflect.Interface, t == rawMessageType:
		return nil
	case t.Kind() == reflect.Slice, t.Kind() == reflect.Map:
		if rules.nonNull {
			return w.errAt(w.start, "must not be null")
		}
		return nil
	}
	return w.errAt(w.start, "must not be null")
}

// scalar checks a string, a boolean or a number against the kind of t: a
// number must fit it. Any other kind is checked as generic JSON.
func (w *walker) scalar(tok json.Token, t reflect.Type) error {
	at := w.start
	switch t.Kind() {
	case reflect.String:
		if _, ok := tok.(string); !ok {
			return w.errAt(at, "want a string, got %s", describe(tok))
		}
	case reflect.Bool:
		if _, ok := tok.(bool); !ok {
			return w.errAt(at, "want true or false, got %s", describe(tok))
		}
	case reflect.Float32, reflect.Float64:
		n, ok := tok.(json.Number)
		if !ok {
			return w.errAt(at, "want a number, got %s", describe(tok))
		}
		if _, err := strconv.ParseFloat(string(n), t.Bits()); err != nil {
			return w.errAt(at, "non-finite number %s (out of range)", n)
		}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		n, ok := tok.(json.Number)
		if !ok {
			return w.errAt(at, "want an integer, got %s", describe(tok))
		}
		if _, err := strconv.ParseInt(string(n), 10, t.Bits()); err != nil {
			return w.errAt(at, "want an integer that fits %s, got %s", t.Kind(), n)
		}
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		n, ok := tok.(json.Number)
		if !ok {
			return w.errAt(at, "want a non-negative integer, got %s", describe(tok))
		}
		if _, err := strconv.ParseUint(string(n), 10, t.Bits()); err != nil {
			return w.errAt(at, "want a non-negative integer that fits %s, got %s", t.Kind(), n)
		}
	default:
		return w.generic(tok)
	}
	return nil
}

// object checks a JSON object against struct type t.
func (w *walker) object(tok json.Token, t reflect.Type) error {
	open := w.start
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return w.errAt(open, "want an object, got %s", describe(tok))
	}
	fields := fieldsOf(t)
	// Most objects have few keys: a small slice beats a map.
	seen := make([]string, 0, len(fields.list))
	for w.dec.More() {
		ktok, err := w.next()
		if err != nil {
			return err
		}
		key := ktok.(string) // the decoder guarantees a string key here
		w.pushKey(key)
		if slices.Contains(seen, key) {
			return w.errAt(w.start, "duplicate key")
		}
		seen = append(seen, key)
		f, ok := fields.byName[key]
		if !ok {
			return w.errAt(w.start, "unknown field")
		}
		vtok, err := w.next()
		if err != nil {
			return err
		}
		if err := w.value(vtok, f.typ, f.rules); err != nil {
			return err
		}
		w.pop()
	}
	if _, err := w.next(); err != nil { // the closing brace
		return err
	}
	for _, f := range fields.list {
		if f.rules.required && !slices.Contains(seen, f.name) {
			w.pushKey(f.name)
			return w.errAt(open, "missing required field")
		}
	}
	return nil
}

// mapValue checks a JSON object whose values all have the map's element type.
func (w *walker) mapValue(tok json.Token, t reflect.Type) error {
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return w.errAt(w.start, "want an object, got %s", describe(tok))
	}
	seen := map[string]bool{}
	for w.dec.More() {
		ktok, err := w.next()
		if err != nil {
			return err
		}
		key := ktok.(string)
		w.pushKey(key)
		if seen[key] {
			return w.errAt(w.start, "duplicate key")
		}
		seen[key] = true
		vtok, err := w.next()
		if err != nil {
			return err
		}
		if err := w.value(vtok, t.Elem(), fieldRules{}); err != nil {
			return err
		}
		w.pop()
	}
	_, err := w.next()
	return err
}

// array checks a JSON array; length >= 0 demands exactly that many elements.
func (w *walker) array(tok json.Token, t reflect.Type, length int) error {
	open := w.start
	if d, ok := tok.(json.Delim); !ok || d != '[' {
		return w.errAt(open, "want an array, got %s", describe(tok))
	}
	i := 0
	for w.dec.More() {
		w.pushIndex(i)
		if length >= 0 && i >= length {
			return w.errAt(w.skipSpace(w.dec.InputOffset()), "too many elements: want exactly %d", length)
		}
		etok, err := w.next()
		if err != nil {
			return err
		}
		if err := w.value(etok, t.Elem(), fieldRules{}); err != nil {
			return err
		}
		w.pop()
		i++
	}
	if _, err := w.next(); err != nil {
		return err
	}
	if length >= 0 && i != length {
		return w.errAt(open, "want exactly %d elements, got %d", length, i)
	}
	return nil
}

// generic checks any JSON value for duplicate keys and non-finite numbers.
func (w *walker) generic(tok json.Token) error {
	switch v := tok.(type) {
	case json.Number:
		if _, err := strconv.ParseFloat(string(v), 64); err != nil {
			return w.errAt(w.start, "non-finite number %s (out of range)", v)
		}
		return nil
	case json.Delim:
		switch v {
		case '{':
			seen := map[string]bool{}
			for w.dec.More() {
				ktok, err := w.next()
				if err != nil {
					return err
				}
				key := ktok.(string)
				w.pushKey(key)
				if seen[key] {
					return w.errAt(w.start, "duplicate key")
				}
				seen[key] = true
				vtok, err := w.next()
				if err != nil {
					return err
				}
				if err := w.generic(vtok); err != nil {
					return err
				}
				w.pop()
			}
		case '[':
			for i := 0; w.dec.More(); i++ {
				w.pushIndex(i)
				etok, err := w.next()
				if err != nil {
					return err
				}
				if err := w.generic(etok); err != nil {
					return err
				}
				w.pop()
			}
		}
		_, err := w.next()
		return err
	}
	return nil
}

// find walks the value that starts with tok and returns the start offset of
// the value whose path is target.
func (w *walker) find(tok json.Token, target string) (int64, bool) {
	if w.pathString() == target {
		return w.start, true
	}
	d, ok := tok.(json.Delim)
	if !ok {
		return 0, false
	}
	for i := 0; w.dec.More(); i++ {
		if d == '{' {
			ktok, err := w.next()
			if err != nil {
				return 0, false
			}
			w.pushKey(ktok.(string))
		} else {
			w.pushIndex(i)
		}
		vtok, err := w.next()
		if err != nil {
			return 0, false
		}
		if off, ok := w.find(vtok, target); ok {
			return off, true
		}
		w.pop()
	}
	if _, err := w.next(); err != nil {
		return 0, false
	}
	return 0, false
}

// describe names a token's JSON kind for messages.
func describe(tok json.Token) string {
	switch v := tok.(type) {
	case nil:
		return "null"
	case bool:
		return strconv.FormatBool(v)
	case json.Number:
		return "number " + string(v)
	case string:
		return "string " + strconv.Quote(v)
	case json.Delim:
		if v == '{' {
			return "an object"
		}
		if v == '[' {
			return "an array"
		}
		return string(v)
	}
	return fmt.Sprintf("%v", tok)
}
