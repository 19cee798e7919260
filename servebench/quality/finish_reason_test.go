package quality

import (
	"testing"

	"github.com/servebench/servebench/servebench/record"
)

func TestFinishReasonAcceptsTGIsNamesForStop(t *testing.T) {
	stop := "stop"
	for _, tc := range []struct {
		want, got string
		pass      bool
	}{
		{stop, "stop", true},
		{stop, "eos_token", true},     // TGI completions: the model's end token
		{stop, "stop_sequence", true}, // TGI completions: a stop string
		{stop, "length", false},
		{"length", "eos_token", false},
		{"eos_token", "stop", true},
	} {
		exp := &record.Expectation{FinishReason: &tc.want}
		v := Judge(exp, Response{Text: "ok", FinishReason: tc.got})
		if v == nil || v.Pass != tc.pass {
			t.Errorf("want %q, got %q: verdict %+v, pass should be %v", tc.want, tc.got, v, tc.pass)
		}
	}
}
