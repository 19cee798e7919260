package strictjson

import (
	"errors"
	"strings"
	"testing"
)

type inner struct {
	Kind string  `json:"kind"`
	Note *string `json:"note,omitempty"`
}

type sample struct {
	ID      string             `json:"id"`
	Sent    *float64           `json:"sent_ms"`
	Times   []float64          `json:"times" strict:"nonnull"`
	Window  [2]float64         `json:"window"`
	Count   int                `json:"count"`
	Flag    bool               `json:"flag"`
	Inner   inner              `json:"inner"`
	Opt     *inner             `json:"opt" strict:"optional"`
	Labels  map[string]any     `json:"labels,omitempty"`
	Extra   []inner            `json:"extra,omitempty"`
	Loose   []float64          `json:"loose"`
	Ignored string             `json:"-"`
	ByName  map[string]float64 `json:"by_name,omitempty"`
}

const good = `{"id": "r01", "sent_ms": null, "times": [1, 2.5], "window": [0, 2000],
 "count": 3, "flag": true, "inner": {"kind": "k"}, "loose": null}`

func TestDecodeAcceptsAWellFormedObject(t *testing.T) {
	var s sample
	if err := Decode([]byte(good), &s); err != nil {
		t.Fatalf("Decode: %v", err)
	}
	if s.ID != "r01" || s.Sent != nil || len(s.Times) != 2 || s.Times[1] != 2.5 ||
		s.Window != [2]float64{0, 2000} || s.Count != 3 || !s.Flag || s.Inner.Kind != "k" || s.Opt != nil {
		t.Fatalf("decoded %+v", s)
	}
}

func TestDecodeRejections(t *testing.T) {
	cases := []struct {
		name, input, field, msg string
		line, col               int
	}{
		{"unknown field", `{"id":"a","bogus":1}`, "bogus", "unknown field", 1, 11},
		{"key differing in case", `{"ID":"a"}`, "ID", "unknown field", 1, 2},
		{"duplicate key", `{"id":"a","id":"b"}`, "id", "duplicate key", 1, 11},
		{"duplicate key in a map", `{"labels":{"x":1,"x":2}}`, "labels.x", "duplicate key", 1, 18},
		{"missing required field", "{\"id\":\"a\",\"sent_ms\":1,\"times\":[],\"window\":[0,1],\"count\":1,\"flag\":false,\"inner\":{\"kind\":\"\"}}", "loose", "missing required field", 1, 1},
		{"missing nested field", `{"inner":{}}`, "inner.kind", "missing required field", 1, 10},
		{"NaN", `{"id":"a","sent_ms":NaN}`, "sent_ms", "non-finite number NaN", 1, 21},
		{"Infinity", "{\n \"sent_ms\": -Infinity}", "sent_ms", "non-finite number -Infinity", 2, 13},
		{"overflowing literal", `{"sent_ms":1e999}`, "sent_ms", "non-finite number 1e999 (out of range)", 1, 12},
		{"overflow inside a map", `{"labels":{"x":[1e400]}}`, "labels.x[0]", "non-finite number 1e400 (out of range)", 1, 17},
		{"null for a string", `{"id":null}`, "id", "must not be null", 1, 7},
		{"null for a nonnull slice", `{"times":null}`, "times", "must not be null", 1, 10},
		{"wrong type", `{"id":3}`, "id", "want a string, got number 3", 1, 7},
		{"fractional integer", `{"count":1.5}`, "count", "want an integer that fits int, got 1.5", 1, 10},
		{"short fixed array", `{"window":[0]}`, "window", "want exactly 2 elements, got 1", 1, 11},
		{"long fixed array", `{"window":[0,1,2]}`, "window[2]", "too many elements: want exactly 2", 1, 16},
		{"element type", `{"times":[1,"x"]}`, "times[1]", `want a number, got string "x"`, 1, 13},
		{"unknown field in an array element", `{"extra":[{"kind":"a","z":1}]}`, "extra[0].z", "unknown field", 1, 23},
		{"trailing data", good + ` {}`, "", "unexpected data after the JSON value", 2, 67},
		{"not an object", `[1]`, "", "want a JSON object, got an array", 1, 1},
		{"truncated", `{"id":"a",`, "", "unexpected end of input", 1, 11},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var s sample
			err := Decode([]byte(c.input), &s)
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("want *Error, got %v", err)
			}
			if e.Field != c.field || e.Msg != c.msg || e.Line != c.line || e.Column != c.col {
				t.Fatalf("got field %q msg %q at %d:%d, want field %q msg %q at %d:%d",
					e.Field, e.Msg, e.Line, e.Column, c.field, c.msg, c.line, c.col)
			}
		})
	}
}

func TestDecodeReportsMalformedJSONWithPosition(t *testing.T) {
	var s sample
	err := Decode([]byte("{\"id\": \"a\",\n \"count\": 1 2}"), &s)
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("want *Error, got %v", err)
	}
	if !strings.HasPrefix(e.Msg, "malformed JSON") || e.Line != 2 {
		t.Fatalf("got %+v", e)
	}
	if got := e.Error(); !strings.HasPrefix(got, "line 2, column ") {
		t.Fatalf("Error() = %q", got)
	}
}

func TestErrorFormatNamesTheField(t *testing.T) {
	e := &Error{Field: "requests[1].id", Line: 3, Column: 7, Msg: "duplicate key"}
	if got, want := e.Error(), `line 3, column 7: field "requests[1].id": duplicate key`; got != want {
		t.Fatalf("Error() = %q, want %q", got, want)
	}
}

func TestDecodeNeedsAStructPointer(t *testing.T) {
	var s sample
	if err := Decode([]byte(`{}`), s); err == nil {
		t.Fatal("a non-pointer was accepted")
	}
}

func TestLocateFindsNestedValues(t *testing.T) {
	data := []byte("{\"requests\": [\n  {\"id\": \"a\"},\n  {\"id\": \"b\"}\n]}")
	line, col, ok := Locate(data, "requests[1].id")
	if !ok || line != 3 || col != 10 {
		t.Fatalf("Locate = %d:%d %v, want 3:10 true", line, col, ok)
	}
	if _, _, ok := Locate(data, "requests[5]"); ok {
		t.Fatal("found an element that is not there")
	}
}
