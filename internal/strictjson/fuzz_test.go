package strictjson

import (
	"encoding/json"
	"reflect"
	"testing"
)

// FuzzDecode checks that Decode never panics, and that whatever it accepts
// encoding/json decodes to the same value.
func FuzzDecode(f *testing.F) {
	f.Add([]byte(good))
	f.Add([]byte(`{"id":"a","id":"b"}`))
	f.Add([]byte(`{"sent_ms":NaN}`))
	f.Add([]byte(`{"labels":{"x":[1,{"y":null}]}}`))
	f.Add([]byte(`{"window":[0,1e400]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		var strict sample
		if err := Decode(data, &strict); err != nil {
			if _, ok := err.(*Error); !ok {
				t.Fatalf("error of type %T: %v", err, err)
			}
			return
		}
		var loose sample
		if err := json.Unmarshal(data, &loose); err != nil {
			t.Fatalf("strict accepted what encoding/json rejects: %v", err)
		}
		if !reflect.DeepEqual(strict, loose) {
			t.Fatalf("strict %+v, encoding/json %+v", strict, loose)
		}
	})
}
