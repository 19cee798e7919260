package strictjson_test

import (
	"fmt"

	"github.com/servebench/servebench/internal/strictjson"
)

func ExampleDecode() {
	var event struct {
		ID     string   `json:"id"`
		SentMS *float64 `json:"sent_ms"`
		Note   string   `json:"note" strict:"optional"`
	}
	fmt.Println(strictjson.Decode([]byte(`{"id": "r01", "sent_ms": 0}`), &event), event.ID)
	fmt.Println(strictjson.Decode([]byte(`{"id": "r01", "id": "r02", "sent_ms": 0}`), &event))
	fmt.Println(strictjson.Decode([]byte(`{"id": "r01"}`), &event))
	fmt.Println(strictjson.Decode([]byte(`{"id": "r01", "sent_ms": NaN}`), &event))
	// Output:
	// <nil> r01
	// line 1, column 15: field "id": duplicate key
	// line 1, column 1: field "sent_ms": missing required field
	// line 1, column 26: field "sent_ms": non-finite number NaN
}
